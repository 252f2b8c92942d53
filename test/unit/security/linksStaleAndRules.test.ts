/**
 * The rest of the file promises, through the built CLI with `--approve all`: a hard link to a file
 * outside is not written through (writes replace the file), a file changed since the agent read it
 * is not deleted, the ignore files and the newly listed files that run code (CI configurations,
 * every lefthook name, `.hg/hgrc`, the `core.hooksPath` folder…) are not changed without a person.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ScriptedServer } from '../../support/scriptedServer';
import { cliTestKit } from '../../support/cliRunner';
import { calls, runCliAgainst, tc, text, treeFingerprint } from './securityKit';

describe('security: hard links, stale deletes, ignore files and the extended list (built CLI, Actor, --approve all)', function () {
  this.timeout(60_000);
  const kit = cliTestKit({
    prefix: 'tandem-sec-rules-',
    outside: true,
    setup(ws) {
      fs.writeFileSync(path.join(ws, 'a.txt'), 'alpha\n');
    },
  });

  const read = tc('read_file', { path: 'a.txt' });
  const results = (s: ScriptedServer) => s.chatRequests().slice(1).map((b) => b.messages.filter((m: { role: string }) => m.role === 'tool').at(-2)?.content as string);

  it('a hard link to a file outside: write_file and edit_file replace the link, the outside file keeps its contents', async () => {
    fs.writeFileSync(path.join(kit.out, 'victim.txt'), 'outside original\n');
    fs.linkSync(path.join(kit.out, 'victim.txt'), path.join(kit.ws, 'linked.txt'));
    fs.linkSync(path.join(kit.out, 'victim.txt'), path.join(kit.ws, 'linked2.txt'));
    const r = await runCliAgainst(kit.cli, [
      calls(tc('read_file', { path: 'linked.txt' }), tc('read_file', { path: 'linked2.txt' })),
      calls(tc('write_file', { path: 'linked.txt', content: 'rewritten\n' }), read),
      calls(tc('edit_file', { path: 'linked2.txt', edits: [{ old_text: 'outside original', new_text: 'edited' }] }), read),
      text('done'),
    ], kit.ws, ['--role', 'actor', '--approve', 'all', 'go'], {});
    kit.server = r.server;
    assert.equal(r.run.code, 0, r.run.stderr);
    assert.equal(fs.readFileSync(path.join(kit.out, 'victim.txt'), 'utf8'), 'outside original\n', 'the outside file is unchanged');
    assert.equal(fs.readFileSync(path.join(kit.ws, 'linked.txt'), 'utf8'), 'rewritten\n');
    assert.equal(fs.readFileSync(path.join(kit.ws, 'linked2.txt'), 'utf8'), 'edited\n');
    assert.equal(fs.statSync(path.join(kit.out, 'victim.txt')).nlink, 1, 'the workspace files are no longer links to it');
  });

  it('delete_file refuses a file changed since the agent read it, like an overwrite', async () => {
    fs.writeFileSync(path.join(kit.ws, 'b.txt'), 'bee\n');
    const r = await runCliAgainst(kit.cli, [
      calls(tc('read_file', { path: 'b.txt' })),
      calls(tc('run_command', { command: 'echo "someone else" >> b.txt' })),
      calls(tc('delete_file', { path: 'b.txt' }), read),
      text('done'),
    ], kit.ws, ['--role', 'actor', '--approve', 'all', 'go'], {});
    kit.server = r.server;
    assert.equal(r.run.code, 0, r.run.stderr);
    assert.match(results(r.server)[2]!, /changed since you read it/, results(r.server)[2]);
    assert.equal(fs.readFileSync(path.join(kit.ws, 'b.txt'), 'utf8'), 'bee\nsomeone else\n');
  });

  it('refuses the ignore files, CI files, every lefthook name, .hg/hgrc and the core.hooksPath folder; writes an ordinary file', async () => {
    fs.writeFileSync(path.join(kit.ws, '.gitignore'), '.env\n');
    fs.writeFileSync(path.join(kit.ws, '.env'), 'SECRET=1\n');
    fs.mkdirSync(path.join(kit.ws, '.git'));
    fs.writeFileSync(path.join(kit.ws, '.git', 'config'), '[core]\n\thooksPath = tools/hooks\n');
    fs.mkdirSync(path.join(kit.ws, 'tools', 'hooks'), { recursive: true });
    const before = treeFingerprint(kit.ws);
    const targets = [
      '.gitignore', 'sub/.tandemignore', '.devcontainer.json', '.travis.yml', 'azure-pipelines.yml', 'bitbucket-pipelines.yml',
      '.buildkite/pipeline.yml', '.drone.yml', 'Jenkinsfile', '.gitlab-ci.yml', '.circleci/config.yml',
      'lefthook.yml', 'lefthook-local.yaml', '.lefthook.toml', 'lefthook.json', '.hg/hgrc', 'tools/hooks/pre-commit',
    ];
    const r = await runCliAgainst(kit.cli, [
      ...targets.map((p) => calls(tc('write_file', { path: p, content: '!.env\nrun: touch pwned\n' }), read)),
      calls(tc('write_file', { path: 'notes.txt', content: 'ordinary\n' }), read),
      text('done'),
    ], kit.ws, ['--role', 'actor', '--approve', 'all', 'go'], { TANDEM_MAX_TOOL_CALLS: '100' });
    kit.server = r.server;
    assert.equal(r.run.code, 0, r.run.stderr);
    const res = results(r.server);
    targets.forEach((t, i) => assert.match(res[i]!, /Refused|can make code run by itself|decides what the agent may read|hooks/, `${t}: ${res[i]}`));
    const after = treeFingerprint(kit.ws);
    assert.ok(after['notes.txt']);
    delete after['notes.txt'];
    assert.deepEqual(after, before);
  });
});
