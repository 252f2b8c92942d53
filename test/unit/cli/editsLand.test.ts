/**
 * Edits the model damages in ordinary ways land as intended or are refused, through the built CLI
 * against the scripted server: a lazy whole-file rewrite keeps every line it elides, a block sent
 * with the wrong indentation lands at the file's, and a patch naming one file twice (`a.txt`,
 * `./a.txt`) is applied whole or not at all, and said so truthfully.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildCli } from '../../support/cliRunner';
import type { ScriptedServer } from '../../support/scriptedServer';
import { calls, runCliAgainst, tc, tempDir, text } from '../security/securityKit';

/** A 200-line Python module of distinct functions (each line says which function it belongs to). */
function pythonModule(): string {
  const out = ['"""Inventory helpers."""', 'import math', 'from collections import defaultdict', '', ''];
  for (let f = 1; out.length < 196; f++) {
    const n = String(f).padStart(2, '0');
    out.push(
      `def summarize_${n}(items, limit=${f}):`,
      `    """Totals for group ${n}, at most limit items."""`,
      `    total_${n} = 0`,
      `    seen_${n} = defaultdict(int)`,
      `    for item in items[:limit]:`,
      `        if item.group == ${f}:`,
      `            seen_${n}[item.kind] += 1`,
      `            total_${n} += math.ceil(item.weight)`,
      `        else:`,
      `            continue`,
      `    return total_${n}, dict(seen_${n})`,
      '',
      '',
    );
  }
  while (out.length < 200) out.push(`CONSTANT_${out.length} = ${out.length}`);
  return out.join('\n') + '\n';
}

describe('edits land as intended through the built CLI', function () {
  this.timeout(90_000);
  let cli: string;
  let ws: string;
  let server: ScriptedServer | undefined;
  before(async () => {
    cli = await buildCli();
  });
  beforeEach(() => (ws = tempDir('tandem-edits-')));
  afterEach(async () => {
    await server?.close();
    server = undefined;
    fs.rmSync(ws, { recursive: true, force: true });
  });
  const results = (s: ScriptedServer, from: number) => s.chatRequests().slice(from).map((b) => String(b.messages.at(-1).content));

  it('a lazy rewrite of a 200-line Python file keeps every elided line byte for byte, and writes no marker', async () => {
    const src = pythonModule();
    assert.equal(src.split('\n').length - 1, 200);
    fs.writeFileSync(path.join(ws, 'inventory.py'), src);
    const lazy = [
      '"""Inventory helpers."""',
      'import math',
      '# ... existing code ...',
      'def summarize_03(items, limit=3):',
      '    """Totals for group 03, at most limit items."""',
      '    total_03 = 0',
      '    seen_03 = defaultdict(int)',
      '    for item in items[:limit]:',
      '        if item.group == 3 and not item.archived:',
      '            seen_03[item.kind] += 1',
      '            total_03 += math.ceil(item.weight)',
      '        else:',
      '            continue',
      '    return total_03, dict(seen_03)',
      '',
      '',
      '# ... rest of the functions unchanged ...',
      '    for item in items[:limit]:',
      '        if item.group == 9:',
      '            seen_09[item.kind] += 1',
      '            total_09 += math.floor(item.weight)',
      '        else:',
      '# ... existing code ...',
    ].join('\n');
    const want = src
      .replace('        if item.group == 3:\n', '        if item.group == 3 and not item.archived:\n')
      .replace('            total_09 += math.ceil(item.weight)', '            total_09 += math.floor(item.weight)');
    const r = await runCliAgainst(cli, [
      calls(tc('read_file', { path: 'inventory.py' })),
      calls(tc('write_file', { path: 'inventory.py', content: lazy })),
      text('done'),
    ], ws, ['--role', 'actor', '--approve', 'all', 'tidy inventory.py'], {});
    server = r.server;
    assert.equal(r.run.code, 0, r.run.stderr);
    const after = fs.readFileSync(path.join(ws, 'inventory.py'), 'utf8');
    assert.equal(after, want, results(r.server, 2)[0]);
    assert.doesNotMatch(after, /existing code|unchanged \.\.\./);
    assert.match(results(r.server, 2)[0]!, /Rewrote inventory\.py \(\+2 -2\)[\s\S]*kept \d+ existing lines/);
  });

  it('a nested Python block sent with damaged indentation lands with the file\'s indentation', async () => {
    const src = pythonModule();
    fs.writeFileSync(path.join(ws, 'inventory.py'), src);
    // The model dropped the block's indentation (8 spaces) and wrote its new nested lines relative to that.
    const old_text = 'if item.group == 5:\n    seen_05[item.kind] += 1\n    total_05 += math.ceil(item.weight)';
    const new_text = 'if item.group == 5:\n    seen_05[item.kind] += 1\n    if item.weight > 0:\n        total_05 += math.ceil(item.weight)';
    const r = await runCliAgainst(cli, [
      calls(tc('read_file', { path: 'inventory.py' })),
      calls(tc('edit_file', { path: 'inventory.py', edits: [{ old_text, new_text }] })),
      text('done'),
    ], ws, ['--role', 'actor', '--approve', 'all', 'guard weights'], {});
    server = r.server;
    assert.equal(r.run.code, 0, r.run.stderr);
    const want = src.replace(
      '        if item.group == 5:\n            seen_05[item.kind] += 1\n            total_05 += math.ceil(item.weight)\n',
      '        if item.group == 5:\n            seen_05[item.kind] += 1\n            if item.weight > 0:\n                total_05 += math.ceil(item.weight)\n',
    );
    assert.equal(fs.readFileSync(path.join(ws, 'inventory.py'), 'utf8'), want, results(r.server, 2)[0]);
    assert.match(results(r.server, 2)[0]!, /ignoring indentation/);
  });

  it('a patch naming one file twice (a.txt and ./a.txt) applies both sections and says so', async () => {
    fs.writeFileSync(path.join(ws, 'a.txt'), 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n');
    const patch = [
      '--- a/a.txt', '+++ b/a.txt', '@@ -1,3 +1,3 @@', ' one', '-two', '+TWO', ' three',
      '--- a/./a.txt', '+++ b/./a.txt', '@@ -8,3 +8,3 @@', ' eight', '-nine', '+NINE', ' ten', '',
    ].join('\n');
    const r = await runCliAgainst(cli, [calls(tc('apply_patch', { patch })), text('done')], ws, ['--role', 'actor', '--approve', 'all', 'patch'], {});
    server = r.server;
    assert.equal(r.run.code, 0, r.run.stderr);
    assert.equal(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8'), 'one\nTWO\nthree\nfour\nfive\nsix\nseven\neight\nNINE\nten\n');
    const result = results(r.server, 1)[0]!;
    assert.match(result, /^Patched a\.txt \(\+2 -2\)\./);
    assert.match(result, /2 sections of the patch name a\.txt; they were applied one after another/);
  });

  it('a patch naming one file twice whose second section does not fit changes nothing and says nothing changed', async () => {
    const before = 'one\ntwo\nthree\n';
    fs.writeFileSync(path.join(ws, 'a.txt'), before);
    const patch = [
      '--- a/a.txt', '+++ b/a.txt', '@@ -1,3 +1,3 @@', ' one', '-two', '+TWO', ' three',
      '--- ./a.txt', '+++ ./a.txt', '@@ -1,3 +1,3 @@', ' one', '-two', '+deux', ' three', '',
    ].join('\n');
    const r = await runCliAgainst(cli, [calls(tc('apply_patch', { patch })), text('done')], ws, ['--role', 'actor', '--approve', 'all', 'patch'], {});
    server = r.server;
    assert.equal(r.run.code, 0, r.run.stderr);
    assert.equal(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8'), before);
    const result = results(r.server, 1)[0]!;
    assert.match(result, /section 2 of 2 for this file[\s\S]*Nothing was changed/);
  });
});
