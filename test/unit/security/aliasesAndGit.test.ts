/**
 * Aliases for things the agent must not touch, through the built CLI with `--approve all`: a
 * symlink to an ignored `.env` (not readable, not searchable), a symlink into `.git/hooks` (not
 * writable: a hook runs as code), a multi-file patch with one file outside (all or none), and a
 * path with a NUL byte. The tree inside and outside is byte-for-byte unchanged.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cliTestKit } from '../../support/cliRunner';
import { calls, runCliAgainst, tc, text, treeFingerprint } from './securityKit';

describe('security: aliases of ignored files, .git and mixed patches (built CLI, Actor, --approve all)', function () {
  this.timeout(60_000);
  const kit = cliTestKit({
    prefix: 'tandem-sec-alias-',
    outside: true,
    setup(ws, out) {
      fs.writeFileSync(path.join(out, 'victim.txt'), 'outside original\n');
      fs.writeFileSync(path.join(ws, 'a.txt'), 'alpha\n');
      fs.writeFileSync(path.join(ws, '.gitignore'), '.env\n');
      fs.writeFileSync(path.join(ws, '.env'), 'SECRET_ENV=hunter2\n');
      fs.mkdirSync(path.join(ws, '.git', 'hooks'), { recursive: true });
      fs.symlinkSync(path.join(ws, '.git', 'hooks'), path.join(ws, 'hooks-link'));
      fs.symlinkSync(path.join(ws, '.git'), path.join(ws, 'dotgit'));
      fs.symlinkSync(path.join(ws, '.env'), path.join(ws, 'env-alias.txt'));
    },
  });

  it('refuses each, says why, and changes nothing', async () => {
    const o = path.basename(kit.out);
    const before = treeFingerprint(kit.ws);
    const outBefore = treeFingerprint(kit.out);
    const read = tc('read_file', { path: 'a.txt' });
    const r = await runCliAgainst(kit.cli, [
      calls(tc('read_file', { path: 'env-alias.txt' }), read),
      calls(tc('search', { pattern: 'hunter2' }), read),
      calls(tc('write_file', { path: 'hooks-link/pre-commit', content: '#!/bin/sh\ntouch pwned\n' }), read),
      calls(tc('write_file', { path: 'dotgit/config', content: '[core]\n\tfsmonitor = touch pwned\n' }), read),
      calls(tc('apply_patch', { patch: `--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-alpha\n+ALPHA\n--- a/../${o}/victim.txt\n+++ b/../${o}/victim.txt\n@@ -1 +1 @@\n-outside original\n+PWNED\n` }), read),
      calls(tc('write_file', { path: 'a.txt\u0000.txt', content: 'x' }), read),
      // On macOS and Windows these name .git itself; refused everywhere.
      calls(tc('write_file', { path: '.GIT/hooks/pre-commit', content: '#!/bin/sh\ntouch pwned\n' }), read),
      calls(tc('write_file', { path: '.git./hooks/pre-commit', content: '#!/bin/sh\ntouch pwned\n' }), read),
      calls(tc('write_file', { path: 'sub/.Git /config', content: 'x' }), read),
      text('done'),
    ], kit.ws, ['--role', 'actor', '--approve', 'all', 'go'], {});
    kit.server = r.server;
    assert.equal(r.run.code, 0, r.run.stderr);
    const results = r.server.chatRequests().slice(1).map((b) => b.messages.filter((m: { role: string }) => m.role === 'tool').at(-2).content as string);
    assert.match(results[0]!, /excluded by the workspace's ignore rules/);
    assert.match(results[1]!, /No matches/);
    assert.match(results[2]!, /inside \.git/);
    assert.match(results[3]!, /inside \.git/);
    assert.match(results[4]!, /outside the workspace/);
    assert.match(results[5]!, /NUL/);
    for (const k of [6, 7, 8]) assert.match(results[k]!, /inside \.git/, results[k]);
    for (const res of results) assert.doesNotMatch(res, /SECRET_ENV/);
    assert.doesNotMatch(r.run.stdout + r.run.stderr, /SECRET_ENV/);
    assert.deepEqual(treeFingerprint(kit.ws), before, 'a.txt too: the patch is all or none');
    assert.deepEqual(treeFingerprint(kit.out), outBefore);
  });
});
