/**
 * git takes orders from more than `.git/` by name, through the built CLI with `--approve all` and
 * the sandbox:
 * - a `.git` FILE (`gitdir: .repo`) makes `.repo` the git dir: its hooks, its config (and the
 *   credentials in it) are as protected as `.git/` is;
 * - `.git/config` can `[include] path = ../.gitconfig` and `[includeIf …] path = …`: the included
 *   files, and the hooks folder they name, are protected too (an included file a command creates is
 *   removed afterwards, as a created hook is).
 * Ordinary files are still written by the same tools and commands.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ScriptedServer } from '../../support/scriptedServer';
import { cliTestKit } from '../../support/cliRunner';
import { calls, runCliAgainst, tc, text, treeFingerprint } from './securityKit';

const CREDS = '[remote "origin"]\n\turl = https://deploy:ghp_SECRETTOKEN123@example.com/repo.git\n';
const git = (ws: string, ...args: string[]) => execFileSync('git', args, { cwd: ws, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });
const gitConfigGet = (ws: string, key: string) => {
  try {
    return git(ws, 'config', '--get', key).trim();
  } catch {
    return '';
  }
};

describe('security: every git dir and every config git reads is protected (built CLI, Actor, --approve all)', function () {
  this.timeout(120_000);
  // Each refused call goes with a read that succeeds, so the run is not stopped for failing calls in a row.
  const read = tc('read_file', { path: 'a.txt' });
  const results = (s: ScriptedServer) => s.chatRequests().slice(1).map((b) => b.messages.filter((m: { role: string }) => m.role === 'tool').at(-2).content as string);
  const attempt = (call: ReturnType<typeof tc>) => calls(call, read);
  const cmd = (command: string) => attempt(tc('run_command', { command }));

  describe('a .git file naming .repo', () => {
    const kit = cliTestKit({
      prefix: 'tandem-sec-gitfile-',
      tmpRoot: '/var/tmp',
      realpath: true,
      setup(ws) {
        fs.writeFileSync(path.join(ws, 'a.txt'), 'alpha\n');
        git(ws, 'init', '-q');
        fs.appendFileSync(path.join(ws, '.git', 'config'), CREDS);
        fs.renameSync(path.join(ws, '.git'), path.join(ws, '.repo'));
        fs.writeFileSync(path.join(ws, '.git'), 'gitdir: .repo\n');
      },
    });

    it('refuses writes and reads in .repo; commands cannot plant hooks or set core.fsmonitor there', async () => {
      assert.equal(git(kit.ws, 'rev-parse', '--git-dir').trim(), path.join(kit.ws, '.repo'), 'git uses .repo');
      const before = treeFingerprint(kit.ws);
      const r = await runCliAgainst(kit.cli, [
        attempt(tc('write_file', { path: '.repo/hooks/pre-commit', content: '#!/bin/sh\ntouch pwned\n' })),
        attempt(tc('read_file', { path: '.repo/config' })),
        cmd("printf '#!/bin/sh\\ntouch pwned\\n' > .repo/hooks/post-checkout"),
        cmd('git config core.fsmonitor "touch pwned"'),
        attempt(tc('search', { pattern: 'SECRETTOKEN' })),
        calls(tc('write_file', { path: 'ok.txt', content: 'ok\n' }), tc('run_command', { command: 'echo cmd > ok2.txt' })),
        text('done'),
      ], kit.ws, ['--role', 'actor', '--approve', 'all', 'go'], { TANDEM_MAX_TOOL_CALLS: '100' });
      kit.server = r.server;
      assert.equal(r.run.code, 0, r.run.stderr);
      const res = results(r.server);
      assert.match(res[0]!, /Refused: \.repo\/hooks\/pre-commit is git's own file/, res[0]);
      assert.match(res[1]!, /Refused: \.repo\/config is excluded/, res[1]);
      assert.match(res[2]!, /Read-only file system/, res[2]);
      assert.match(res[3]!, /Exit code: [1-9]/, res[3]);
      assert.doesNotMatch(res.join('\n'), /deploy:ghp_/, 'the credential never reaches the model');
      assert.equal(gitConfigGet(kit.ws, 'core.fsmonitor'), '');
      const after = treeFingerprint(kit.ws);
      assert.equal(fs.readFileSync(path.join(kit.ws, 'ok.txt'), 'utf8'), 'ok\n');
      assert.equal(fs.readFileSync(path.join(kit.ws, 'ok2.txt'), 'utf8'), 'cmd\n');
      delete after['ok.txt'];
      delete after['ok2.txt'];
      assert.deepEqual(after, before, 'nothing else changed');
    });
  });

  describe('configs .git/config includes, and the hooks folder they name', () => {
    const kit = cliTestKit({
      prefix: 'tandem-sec-gitinclude-',
      tmpRoot: '/var/tmp',
      realpath: true,
      setup(ws) {
        fs.writeFileSync(path.join(ws, 'a.txt'), 'alpha\n');
        git(ws, 'init', '-q');
        fs.appendFileSync(path.join(ws, '.git', 'config'), '[include]\n\tpath = ../.gitconfig\n[includeIf "gitdir:**"]\n\tpath = ../extra.gitconfig\n');
        fs.writeFileSync(path.join(ws, '.gitconfig'), '[core]\n\thooksPath = tools/hooks\n');
        fs.mkdirSync(path.join(ws, 'tools', 'hooks'), { recursive: true });
        fs.writeFileSync(path.join(ws, 'tools', 'hooks', 'README'), 'hooks\n');
      },
    });

    it('refuses changes to the included configs and the hooks folder; a created included config is removed and reported', async () => {
      assert.equal(gitConfigGet(kit.ws, 'core.hookspath'), 'tools/hooks', 'git follows the include');
      const before = treeFingerprint(kit.ws);
      const r = await runCliAgainst(kit.cli, [
        attempt(tc('edit_file', { path: '.gitconfig', edits: [{ old_text: 'tools/hooks', new_text: 'x' }] })),
        attempt(tc('write_file', { path: 'extra.gitconfig', content: '[core]\n\tfsmonitor = touch pwned\n' })),
        attempt(tc('write_file', { path: 'tools/hooks/pre-commit', content: '#!/bin/sh\ntouch pwned\n' })),
        cmd('git config --file .gitconfig core.fsmonitor "touch pwned"'),
        cmd("printf '[core]\\n\\tfsmonitor = touch pwned\\n' >> .gitconfig"),
        cmd("printf '#!/bin/sh\\ntouch pwned\\n' > tools/hooks/pre-commit"),
        cmd("printf '[core]\\n\\tfsmonitor = touch pwned\\n' > extra.gitconfig; echo created"),
        text('done'),
      ], kit.ws, ['--role', 'actor', '--approve', 'all', 'go'], { TANDEM_MAX_TOOL_CALLS: '100' });
      kit.server = r.server;
      assert.equal(r.run.code, 0, r.run.stderr);
      const res = results(r.server);
      assert.match(res[0]!, /Refused: \.gitconfig is git's own file \(git reads config from it/, res[0]);
      assert.match(res[1]!, /Refused: extra\.gitconfig is git's own file/, res[1]);
      assert.match(res[2]!, /Refused: tools\/hooks\/pre-commit is in the folder git runs hooks from/, res[2]);
      assert.match(res[3]!, /Exit code: [1-9]/, res[3]);
      assert.match(res[4]!, /Read-only file system/, res[4]);
      assert.match(res[5]!, /Read-only file system/, res[5]);
      assert.match(res[6]!, /\[sandbox\] removed extra\.gitconfig/, res[6]);
      assert.equal(gitConfigGet(kit.ws, 'core.fsmonitor'), '');
      assert.deepEqual(treeFingerprint(kit.ws), before, 'nothing changed');
    });
  });
});
