/**
 * The Planner's read-only shell (TANDEM_READONLY_SHELL=1, off by default), through the built CLI:
 * the Planner may run commands, which see the workspace and even their own writes, but every write
 * is gone afterwards, nothing outside changes, and there is no network. Without the setting the
 * Planner has no shell at all.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ScriptedServer } from '../../support/scriptedServer';
import { cliTestKit } from '../../support/cliRunner';
import { calls, runCliAgainst, tc, text, treeFingerprint } from './securityKit';


describe('security: the Planner\'s read-only shell (built CLI, --role planner, --approve all)', function () {
  this.timeout(60_000);
  const kit = cliTestKit({
    prefix: 'tandem-ro-shell-',
    outside: true,
    tmpRoot: '/var/tmp',
    realpath: true,
    setup(ws, out) {
      fs.writeFileSync(path.join(ws, 'a.txt'), 'alpha\n');
      fs.mkdirSync(path.join(ws, 'src'));
      fs.writeFileSync(path.join(ws, 'src', 'b.ts'), 'export const b = 1;\n');
      fs.mkdirSync(path.join(ws, '.git', 'hooks'), { recursive: true });
      fs.writeFileSync(path.join(out, 'victim.txt'), 'outside\n');
    },
  });

  const lastTool = (s: ScriptedServer, i: number) => s.chatRequests()[i]!.messages.filter((m: { role: string }) => m.role === 'tool').at(-1).content as string;

  it('runs commands whose every write is gone afterwards; outside and the network stay out of reach', async () => {
    const before = treeFingerprint(kit.ws);
    const outBefore = treeFingerprint(kit.out);
    const r = await runCliAgainst(kit.cli, [
      calls(tc('run_command', { command: 'ls -R | head -20; echo changed > a.txt; rm src/b.ts; mkdir -p coverage; echo 90% > coverage/report.txt; cat a.txt coverage/report.txt' })),
      calls(tc('run_command', { command: `(echo pwned > ${kit.out}/victim.txt) 2>&1 || true; (printf x > .git/hooks/pre-commit) 2>&1 || true; (exec 3<>/dev/tcp/1.1.1.1/53 && echo connected) 2>&1 || true` })),
      calls(tc('run_command', { command: 'cat a.txt; ls src' })),
      text('done'),
    ], kit.ws, ['--role', 'planner', '--approve', 'all', 'look around'], { TANDEM_READONLY_SHELL: '1' });
    kit.server = r.server;
    assert.equal(r.run.code, 0, r.run.stderr);
    const first = lastTool(r.server, 1);
    assert.match(first, /^Exit code: 0\n[\s\S]*src[\s\S]*changed\n90%/, first);
    assert.match(first, /read-only shell: whatever the command wrote is gone/);
    const second = lastTool(r.server, 2);
    assert.match(second, /victim\.txt: Read-only file system/);
    assert.match(second, /pre-commit: Read-only file system/);
    assert.doesNotMatch(second, /connected/);
    const third = lastTool(r.server, 3);
    assert.match(third, /^Exit code: 0\nalpha\nb\.ts/, 'the next command sees the workspace as it was');
    assert.deepEqual(treeFingerprint(kit.ws), before, 'every write the Planner\'s commands made is gone');
    assert.deepEqual(treeFingerprint(kit.out), outBefore);
  });

  it('without the setting the Planner has no shell', async () => {
    const r = await runCliAgainst(kit.cli, [calls(tc('run_command', { command: 'echo x > made.txt' })), text('done')], kit.ws, ['--role', 'planner', '--approve', 'all', 'go'], {});
    kit.server = r.server;
    assert.equal(r.run.code, 0, r.run.stderr);
    assert.match(lastTool(r.server, 1), /not permitted for the Planner role \(no shell\)/);
    assert.ok(!r.server.chatRequests()[0]!.tools?.some((t: { function: { name: string } }) => t.function.name === 'run_command'), 'not offered');
    assert.ok(!fs.existsSync(path.join(kit.ws, 'made.txt')));
  });
});
