/**
 * The core side of "new problems after a write": what the host's language services report after an
 * approved write, minus what they reported before, goes into the tool result. The host here is a
 * scripted provider (the real one, with TypeScript, is test/integration/host/problemsAfterWrite.test.ts).
 */
import * as assert from 'node:assert/strict';
import { editFileTool } from '../../../src/core/tools/editFile';
import { writeFileTool } from '../../../src/core/tools/writeFile';
import { applyPatchTool } from '../../../src/core/tools/applyPatch';
import { readFileTool } from '../../../src/core/tools/readFile';
import { newProblems, newProblemsSince } from '../../../src/core/tools/newProblems';
import type { Diagnostic } from '../../../src/core/ports/ports';
import { makeHarness, type Harness } from './toolHarness';

const err = (path: string, line: number, message: string): Diagnostic => ({ path, line, severity: 'error', message, source: 'ts' });

describe('new problems after an approved write', () => {
  let h: Harness;
  let problems: Map<string, Diagnostic[]>;
  let watched: string[];
  beforeEach(() => {
    h = makeHarness();
    problems = new Map();
    watched = [];
    h.host.diagnostics = {
      get: async (p) => (p ? problems.get(p) ?? [] : [...problems.values()].flat()),
      watch: async (p) => {
        watched.push(p);
        const before = problems.get(p) ?? [];
        // What the language services say once they have looked at the written text.
        return { before, after: async () => problems.get(`${p}#after`) ?? [] };
      },
    };
  });
  afterEach(() => h.cleanup());

  it('edit_file: an error the file did not have is reported with its line; one it had (moved down a line) is not', async () => {
    const file = h.write('calc.ts', 'export const a: string = 1;\nexport const four = double(2);\n');
    problems.set(file, [err(file, 1, "Type 'number' is not assignable to type 'string'.")]);
    problems.set(`${file}#after`, [
      err(file, 2, "Type 'number' is not assignable to type 'string'."),
      err(file, 3, "Argument of type 'string' is not assignable to parameter of type 'number'."),
    ]);
    const r = await h.call(editFileTool, { path: 'calc.ts', edits: [{ old_text: 'export const four = double(2);', new_text: '// doubled\nexport const four = double("2");' }] });
    assert.equal(r.isError, undefined, r.content);
    assert.deepEqual(watched, [file]);
    assert.match(r.content, /The editor reports 1 new problem in calc\.ts after this change:\ncalc\.ts:3 error: Argument of type 'string' is not assignable to parameter of type 'number'\. \[ts\]$/);
    assert.doesNotMatch(r.content, /Type 'number' is not assignable to type 'string'/);
  });

  it('write_file and apply_patch report per file; a write with no new problems says nothing about problems', async () => {
    const a = h.write('a.ts', 'export const a = 1;\n');
    const b = h.write('b.ts', 'export const b = 2;\n');
    problems.set(`${b}#after`, [err(b, 1, "Cannot find name 'c'.")]);
    const r = await h.call(applyPatchTool, {
      patch: '--- a/a.ts\n+++ b/a.ts\n@@ -1 +1 @@\n-export const a = 1;\n+export const a = 10;\n--- a/b.ts\n+++ b/b.ts\n@@ -1 +1 @@\n-export const b = 2;\n+export const b = c;\n',
    });
    assert.equal(r.isError, undefined, r.content);
    assert.match(r.content, /1 new problem in b\.ts[\s\S]*b\.ts:1 error: Cannot find name 'c'\./);
    assert.doesNotMatch(r.content, /problem in a\.ts/);
    await h.call(readFileTool, { path: 'a.ts' });
    const w = await h.call(writeFileTool, { path: 'a.ts', content: 'export const a = 11;\n' });
    assert.equal(w.isError, undefined, w.content);
    assert.doesNotMatch(w.content, /problem/);
    assert.deepEqual(watched, [a, b, a]);
  });

  it('a host whose language services had not looked before the change does not call the problems new', async () => {
    const file = h.write('late.ts', 'export const x = 1;\n');
    h.host.diagnostics = {
      get: async () => [],
      watch: async () => ({ before: undefined, after: async () => [err(file, 1, 'Old problem.')] }),
    };
    const r = await h.call(editFileTool, { path: 'late.ts', edits: [{ old_text: 'x = 1', new_text: 'x = 2' }] });
    assert.match(r.content, /The editor reports 1 problem \(it had not checked the file before, so some may be older\) in late\.ts/);
  });

  it('newProblems counts repeats and ignores warnings by default; newProblemsSince is undefined without language services', async () => {
    const p = '/w/a.ts';
    const before = [err(p, 1, 'X.'), { ...err(p, 2, 'W.'), severity: 'warning' as const }];
    const after = [err(p, 5, 'X.'), err(p, 9, 'X.'), { ...err(p, 3, 'W2.'), severity: 'warning' as const }];
    assert.deepEqual(newProblems(before, after).map((d) => d.line), [9]);
    assert.deepEqual(newProblems(before, after, ['error', 'warning']).map((d) => d.message), ['X.', 'W2.']);
    assert.equal(await newProblemsSince(undefined, p, before), undefined);
    assert.deepEqual(await newProblemsSince({ get: async () => after }, p, before), [after[1]]);
  });
});
