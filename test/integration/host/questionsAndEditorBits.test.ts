import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { PanelQuestionAsker, QuestionCancelled } from '../../../src/host/vscode/questionAsker';
import { VscodeDiagnostics } from '../../../src/host/vscode/diagnostics';
import { findRipgrep } from '../../../src/host/vscode/ripgrep';
import { selectionContext, selectionPrompt } from '../../../src/host/vscode/selectionPrompt';
import type { Question } from '../../../src/protocol';
import { closeAllEditors, removeDir, tempDir } from './helpers';

const question: Question = {
  question: 'Delete the old config?',
  severity: 'major',
  options: [{ label: 'Yes', value: 'yes' }, { label: 'No', value: 'no' }],
  default: 'no',
  allow_custom: false,
};

describe('VS Code host: questions answered in the chat', () => {
  it('resolves with the clicked option and refuses answers that are not options', async () => {
    const asker = new PanelQuestionAsker();
    const p = asker.ask(question, 'q1', new AbortController().signal);
    assert.equal(asker.answer('q1', 'rm -rf /'), false, 'free text is not accepted when allow_custom is false');
    assert.equal(asker.answer('q-other', 'yes'), false, 'an answer for another card is ignored');
    assert.equal(asker.answer('q1', 'yes'), true);
    assert.equal(await p, 'yes');
    assert.equal(asker.answer('q1', 'no'), false, 'a second click does nothing');
    asker.dispose();
  });

  it('accepts free text when allowed, and Stop cancels a waiting question', async () => {
    const asker = new PanelQuestionAsker();
    const p = asker.ask({ ...question, allow_custom: true }, 'q2', new AbortController().signal);
    assert.equal(asker.answer('q2', 'only the .bak files'), true);
    assert.equal(await p, 'only the .bak files');
    const ac = new AbortController();
    const waiting = asker.ask(question, 'q3', ac.signal);
    ac.abort();
    await assert.rejects(waiting, QuestionCancelled);
    asker.dispose();
  });
});

describe('VS Code host: diagnostics, ripgrep, selection prompts', () => {
  let dir: string;
  beforeEach(() => { dir = tempDir('bits'); });
  afterEach(async () => { await closeAllEditors(); removeDir(dir); });

  it('returns the editor\'s problems with 1-based lines, errors first', async () => {
    const file = path.join(dir, 'p.ts');
    fs.writeFileSync(file, 'a\nb\nc\n');
    const coll = vscode.languages.createDiagnosticCollection('tandem-it');
    try {
      coll.set(vscode.Uri.file(file), [
        new vscode.Diagnostic(new vscode.Range(0, 0, 0, 1), 'just a hint', vscode.DiagnosticSeverity.Hint),
        new vscode.Diagnostic(new vscode.Range(2, 0, 2, 1), 'broken here', vscode.DiagnosticSeverity.Error),
      ]);
      const got = await new VscodeDiagnostics().get(file);
      assert.deepEqual(got.map((d) => [d.line, d.severity, d.message]), [[3, 'error', 'broken here'], [1, 'hint', 'just a hint']]);
      const all = await new VscodeDiagnostics().get();
      assert.ok(all.some((d) => d.path === file && d.message === 'broken here'));
    } finally {
      coll.dispose();
    }
  });

  it('finds the ripgrep VS Code ships (or one on PATH) and it runs', () => {
    const rg = findRipgrep(vscode.env.appRoot);
    assert.ok(rg, `rg found under ${vscode.env.appRoot} or on PATH`);
    console.log(`      (rg: ${rg})`);
    const r = spawnSync(rg, ['--version'], { encoding: 'utf8' });
    assert.equal(r.status, 0);
    assert.match(r.stdout, /ripgrep/);
    assert.equal(findRipgrep(dir, ''), undefined, 'nothing found where there is none');
  });

  it('builds the selection prompt with the file, the lines and the code', async () => {
    const file = path.join(dir, 'sel.py');
    fs.writeFileSync(file, 'def a():\n    return 1\n\ndef b():\n    return "```"\n');
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(file));
    editor.selection = new vscode.Selection(3, 0, 5, 0);
    const sel = selectionContext(editor);
    assert.ok(sel);
    assert.equal(sel.startLine, 4);
    assert.equal(sel.endLine, 5, 'a selection ending at column 0 does not include that line');
    assert.equal(sel.path, vscode.workspace.asRelativePath(file, false));
    const prompt = selectionPrompt('explain', sel);
    assert.ok(prompt.includes(`\`${sel.path}\` (lines 4-5)`));
    assert.ok(prompt.includes('````python\ndef b():\n    return "```"\n\n````'), 'the fence is longer than any backticks inside');
    assert.match(selectionPrompt('plan', sel, 'Make b return 2'), /^Make b return 2\n/);
  });
});
