/**
 * Secrets outside the workspace are not readable by sandboxed commands, through the built CLI:
 * the user's credential folders and files (`~/.ssh`, `~/.aws`, `~/.config/gcloud`, `~/.netrc`) read
 * as empty, as do secret-named files in the folders above the workspace (`../.env`, `../deploy.pem`)
 * and a package's `.env` under node_modules. Ordinary files outside stay readable (the system).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cliTestKit } from '../../support/cliRunner';
import { calls, runCliAgainst, tc, text } from './securityKit';

describe('security: sandboxed commands cannot read secrets outside the workspace (built CLI, Actor, --approve all)', function () {
  this.timeout(60_000);
  const kit = cliTestKit({ prefix: 'tandem-sec-outside-secrets-', outside: true, tmpRoot: '/var/tmp', realpath: true });

  it('home credential folders and files, parent-folder .env/*.pem and node_modules/**/.env read empty', async () => {
    const home = path.join(kit.out, 'home');
    const w = (p: string, body: string) => {
      fs.mkdirSync(path.dirname(p), { recursive: true });
      fs.writeFileSync(p, body);
    };
    w(path.join(home, '.ssh', 'id_ed25519'), 'SSH-PRIVATE-KEY\n');
    w(path.join(home, '.aws', 'credentials'), 'AWS-SECRET\n');
    w(path.join(home, '.config', 'gcloud', 'credentials.db'), 'GCLOUD-SECRET\n');
    w(path.join(home, '.netrc'), 'machine x login u password NETRC-SECRET\n');
    w(path.join(home, 'notes.txt'), 'ordinary home file\n');
    const ws = path.join(kit.out, 'proj', 'ws');
    w(path.join(kit.out, 'proj', '.env'), 'PARENT-ENV-SECRET\n');
    w(path.join(kit.out, 'proj', 'deploy.pem'), 'PARENT-PEM-SECRET\n');
    w(path.join(ws, 'node_modules', 'pkg', '.env'), 'NODE-MODULES-SECRET\n');
    w(path.join(ws, 'a.txt'), 'alpha\n');
    const r = await runCliAgainst(kit.cli, [
      calls(tc('run_command', { command: 'set +e; cat ~/.ssh/id_ed25519 ~/.aws/credentials ~/.config/gcloud/credentials.db ~/.netrc ../.env ../deploy.pem node_modules/pkg/.env 2>&1; ls -A ~/.ssh; cat ~/notes.txt a.txt; echo "[end]"' })),
      text('done'),
    ], ws, ['--role', 'actor', '--approve', 'all', 'go'], { HOME: home });
    kit.server = r.server;
    assert.equal(r.run.code, 0, r.run.stderr);
    const res = r.server.chatRequests()[1]!.messages.filter((m: { role: string }) => m.role === 'tool').at(-1).content as string;
    assert.match(res, /ordinary home file\nalpha\n\[end\]/, res);
    assert.doesNotMatch(res, /SECRET|PRIVATE-KEY/, res);
  });
});
