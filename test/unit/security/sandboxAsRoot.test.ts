/**
 * The sandbox holds when Tandem runs as root (containers, CI, this machine): through the built CLI,
 * a sandboxed command has no capabilities (CapEff 0), so it cannot unmount what hides `.env`, unmount
 * the read-only `.git`, remount `/` read-write, or make a user namespace of its own to get
 * capabilities back. Checked for the Actor's sandbox and for the Planner's read-only shell.
 * These tests need root: as another user they fail and say so (they prove nothing there).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ScriptedServer } from '../../support/scriptedServer';
import { cliTestKit } from '../../support/cliRunner';
import { calls, runCliAgainst, tc, text, treeFingerprint } from './securityKit';

const ESCAPES = (out: string) => [
  'grep CapEff /proc/self/status',
  // `set +e`: commands run under `sh -e`; each escape is tried in turn whatever the previous said.
  'set +e; umount .env 2>&1; umount -l .env 2>&1; cat .env; echo "[end]"',
  'set +e; umount .git 2>&1; umount -l .git 2>&1; (printf "#!/bin/sh\\ntouch pwned\\n" > .git/hooks/pre-commit) 2>&1; echo "[end]"',
  `set +e; mount -o remount,rw,bind / 2>&1; (echo pwned > ${out}/victim.txt) 2>&1; echo "[end]"`,
  'set +e; unshare -rm sh -c "umount .env; cat .env" 2>&1; echo "[end]"',
];

describe('security: the sandbox as root has no capabilities (built CLI, --approve all)', function () {
  this.timeout(120_000);
  const kit = cliTestKit({
    prefix: 'tandem-sbx-root-',
    outside: true,
    tmpRoot: '/var/tmp',
    realpath: true,
    setup(ws, out) {
      fs.writeFileSync(path.join(ws, 'a.txt'), 'alpha\n');
      fs.writeFileSync(path.join(ws, '.env'), 'DB_PASSWORD=hunter2\n');
      fs.mkdirSync(path.join(ws, '.git', 'hooks'), { recursive: true });
      fs.writeFileSync(path.join(ws, '.git', 'config'), '[core]\n\tbare = false\n');
      fs.writeFileSync(path.join(out, 'victim.txt'), 'outside\n');
    },
  });
  before(function () {
    if (process.getuid?.() !== 0) assert.fail(`these tests prove the sandbox holds as root and must run as root (uid ${process.getuid?.()}); run them in CI or a root container`);
  });

  const toolResults = (s: ScriptedServer) => s.chatRequests().slice(1).map((b) => b.messages.filter((m: { role: string }) => m.role === 'tool').at(-1).content as string);

  for (const [who, args, env] of [
    ['the Actor', ['--role', 'actor', '--approve', 'all', 'go'], {}],
    ["the Planner's read-only shell", ['--role', 'planner', '--approve', 'all', 'look'], { TANDEM_READONLY_SHELL: '1' }],
  ] as const) {
    it(`${who}: CapEff is 0; umount .env / .git, remount / rw and a nested user namespace all fail`, async () => {
      const wsBefore = treeFingerprint(kit.ws);
      const outBefore = treeFingerprint(kit.out);
      const r = await runCliAgainst(kit.cli, [...ESCAPES(kit.out).map((command) => calls(tc('run_command', { command }))), text('done')], kit.ws, [...args], env);
      kit.server = r.server;
      assert.equal(r.run.code, 0, r.run.stderr);
      const res = toolResults(r.server);
      assert.match(res[0]!, /CapEff:\s+0000000000000000/, res[0]);
      for (const x of res) assert.doesNotMatch(x, /hunter2/, x);
      assert.match(res[1]!, /\[end\]/);
      assert.match(res[2]!, /pre-commit: (Read-only file system|Permission denied)/, res[2]);
      assert.match(res[3]!, /victim\.txt: Read-only file system/, res[3]);
      assert.deepEqual(treeFingerprint(kit.ws), wsBefore, 'nothing in the workspace changed');
      assert.deepEqual(treeFingerprint(kit.out), outBefore, 'nothing outside changed');
    });
  }
});
