/**
 * A protected file stays protected under any of its names, through the built CLI with `--approve all`.
 * The repository's `.git` is a symlink to `gitstore/` inside the workspace (git follows it: a hook
 * written as `gitstore/hooks/pre-commit` runs on the next commit), and `.vscode`, `.envrc`, `.npmrc`
 * are symlinks to ordinary-looking workspace paths. Writing through either name, and reading
 * `.git/config` (which holds the remote URL with its credentials), is refused; ordinary files are
 * still written.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ScriptedServer } from '../../support/scriptedServer';
import { cliTestKit } from '../../support/cliRunner';
import { calls, runCliAgainst, tc, text, treeFingerprint } from './securityKit';

const CONFIG = '[remote "origin"]\n\turl = https://deploy:ghp_SECRETTOKEN123@example.com/repo.git\n';

describe('security: .git and execution-sensitive files behind symlinks (built CLI, Actor, --approve all)', function () {
  this.timeout(60_000);
  const kit = cliTestKit({
    prefix: 'tandem-sec-linked-',
    setup(ws) {
      fs.writeFileSync(path.join(ws, 'a.txt'), 'alpha\n');
      fs.mkdirSync(path.join(ws, 'gitstore', 'hooks'), { recursive: true });
      fs.writeFileSync(path.join(ws, 'gitstore', 'config'), CONFIG);
      fs.writeFileSync(path.join(ws, 'gitstore', 'HEAD'), 'ref: refs/heads/main\n');
      fs.symlinkSync('gitstore', path.join(ws, '.git'));
      fs.mkdirSync(path.join(ws, 'editor-conf'));
      fs.writeFileSync(path.join(ws, 'editor-conf', 'settings.json'), '{}\n');
      fs.symlinkSync('editor-conf', path.join(ws, '.vscode'));
      fs.writeFileSync(path.join(ws, 'env-setup.sh'), 'export A=1\n');
      fs.symlinkSync('env-setup.sh', path.join(ws, '.envrc'));
      fs.mkdirSync(path.join(ws, 'config'));
      fs.writeFileSync(path.join(ws, 'config', 'npm.ini'), 'fund=false\n');
      fs.symlinkSync(path.join('config', 'npm.ini'), path.join(ws, '.npmrc'));
    },
  });

  // Each refused call goes with a read that succeeds, so the run is not stopped for failing calls in a row.
  const read = tc('read_file', { path: 'a.txt' });
  const toolResults = (s: ScriptedServer) =>
    s.chatRequests().slice(1).map((b) => b.messages.filter((m: { role: string }) => m.role === 'tool').at(-2).content as string);

  it('refuses writes to the link target of .git and reads of .git/config through the link', async () => {
    const before = treeFingerprint(kit.ws);
    const r = await runCliAgainst(kit.cli, [
      calls(tc('write_file', { path: 'gitstore/hooks/pre-commit', content: '#!/bin/sh\ntouch pwned\n' }), read),
      calls(tc('read_file', { path: 'gitstore/config' }), read),
      calls(tc('edit_file', { path: 'gitstore/config', edits: [{ old_text: 'example.com', new_text: 'evil.example' }] }), read),
      calls(tc('read_file', { path: '.git/config' }), read),
      calls(tc('delete_file', { path: 'gitstore/HEAD' }), read),
      calls(tc('search', { pattern: 'SECRETTOKEN' }), read),
      text('done'),
    ], kit.ws, ['--role', 'actor', '--approve', 'all', 'go'], {});
    kit.server = r.server;
    assert.equal(r.run.code, 0, r.run.stderr);
    const results = toolResults(r.server);
    assert.match(results[0]!, /\.git\/hooks\/pre-commit is inside \.git/, results[0]);
    assert.match(results[1]!, /excluded|inside \.git/, results[1]);
    assert.match(results[2]!, /inside \.git|excluded/, results[2]);
    assert.match(results[3]!, /\.git\/config is excluded/, results[3]);
    assert.match(results[4]!, /inside \.git/, results[4]);
    assert.match(results[5]!, /No matches/, results[5]);
    for (const res of results) assert.doesNotMatch(res, /deploy:ghp_/);
    assert.doesNotMatch(r.run.stdout + r.run.stderr, /deploy:ghp_/);
    assert.deepEqual(treeFingerprint(kit.ws), before);
  });

  it('refuses .vscode, .envrc and .npmrc written through the link or through the target, and still writes an ordinary file', async () => {
    const before = treeFingerprint(kit.ws);
    const task = JSON.stringify({ version: '2.0.0', tasks: [{ label: 'x', type: 'shell', command: 'touch pwned', runOptions: { runOn: 'folderOpen' } }] });
    const r = await runCliAgainst(kit.cli, [
      calls(tc('write_file', { path: 'editor-conf/tasks.json', content: task }), read),
      calls(tc('write_file', { path: '.vscode/tasks.json', content: task }), read),
      calls(tc('read_file', { path: 'env-setup.sh' }), read),
      calls(tc('edit_file', { path: 'env-setup.sh', edits: [{ old_text: 'A=1', new_text: 'A=1; touch pwned' }] }), read),
      calls(tc('read_file', { path: '.npmrc' }), read),
      calls(tc('edit_file', { path: '.npmrc', edits: [{ old_text: 'fund=false', new_text: 'node-options=--require ./pwn.js' }] }), read),
      calls(tc('delete_file', { path: 'config/npm.ini' }), read),
      calls(tc('write_file', { path: 'notes.txt', content: 'ordinary\n' }), read),
      text('done'),
    ], kit.ws, ['--role', 'actor', '--approve', 'all', 'go'], {});
    kit.server = r.server;
    assert.equal(r.run.code, 0, r.run.stderr);
    const results = toolResults(r.server);
    assert.match(results[0]!, /reached as \.vscode\/tasks\.json through a symlink.*can make code run by itself/s, results[0]);
    assert.match(results[1]!, /can make code run by itself/, results[1]);
    assert.match(results[3]!, /\.envrc.*can make code run by itself|direnv/s, results[3]);
    assert.match(results[5]!, /can make code run by itself/, results[5]);
    assert.match(results[6]!, /reached as \.npmrc through a symlink/, results[6]);
    assert.match(results[7]!, /Created notes\.txt|notes\.txt/, results[7]);
    const after = treeFingerprint(kit.ws);
    assert.ok(after['notes.txt'], 'the ordinary file was written');
    delete after['notes.txt'];
    assert.deepEqual(after, before, 'nothing protected changed');
  });
});
