/**
 * Commands under `--approve all` run in the bubblewrap sandbox, through the built CLI. Each escape
 * an untrusted repository (or a misled model) could try is run as a real command: writing outside
 * through `..`, `cd ..`, an absolute path, `tee`, `cp`, `$(…)`; planting a git hook or an editor task;
 * a job that outlives its command (`setsid`, `nohup`); the network; the API key from the environment
 * or from /proc (the parent's environment). Each fails inside, and the same kind of command works on
 * workspace files. Workspaces live under /var/tmp, not /tmp: the sandbox's /tmp is private, so an
 * escape into /tmp would vanish rather than fail, and the test would prove less.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { cliTestKit } from '../../support/cliRunner';
import { calls, runCliAgainst, tc, text, treeFingerprint } from './securityKit';

const KEY = 'sk-sbx-0123456789abcdef';

describe('security: sandboxed commands cannot escape (built CLI, Actor, --approve all, bubblewrap)', function () {
  this.timeout(120_000);
  const kit = cliTestKit({
    prefix: 'tandem-sbx-ws-',
    outside: true,
    tmpRoot: '/var/tmp',
    setup(ws, out) {
      fs.writeFileSync(path.join(out, 'victim.txt'), 'outside original\n');
      fs.writeFileSync(path.join(ws, 'a.txt'), 'alpha\n');
      fs.mkdirSync(path.join(ws, '.git', 'hooks'), { recursive: true });
      fs.writeFileSync(path.join(ws, '.git', 'config'), '[core]\n\tbare = false\n');
      fs.mkdirSync(path.join(ws, '.vscode'));
      fs.writeFileSync(path.join(ws, '.vscode', 'settings.json'), '{}\n');
      fs.writeFileSync(path.join(ws, '.env'), 'DB_PASSWORD=hunter2\n');
      fs.writeFileSync(path.join(ws, 'server.pem'), '-----BEGIN PRIVATE KEY-----\nMIIEsecret\n');
    },
  });

  /** Runs each command as one run_command call; returns each tool result. */
  async function runCommands(commands: string[], env: Record<string, string> = {}): Promise<string[]> {
    const r = await runCliAgainst(kit.cli, [...commands.map((command) => calls(tc('run_command', { command }))), text('done')], kit.ws, ['--role', 'actor', '--approve', 'all', 'go'], {
      TANDEM_API_KEY: KEY,
      OPENAI_API_KEY: KEY,
      ...env,
    });
    kit.server = r.server;
    assert.equal(r.run.code, 0, r.run.stderr);
    assert.ok(!(r.run.stdout + r.run.stderr).includes(KEY.slice(4, 16)), 'the key never shows');
    return r.server.chatRequests().slice(1).map((b) => b.messages.filter((m: { role: string }) => m.role === 'tool').at(-1).content as string);
  }

  it('writes outside the workspace fail (.., cd .., absolute, tee, cp, $(…), here-doc); the same writes inside work', async () => {
    const o = path.basename(kit.out);
    const outsideBefore = treeFingerprint(kit.out);
    const res = await runCommands([
      'echo inside > made.txt && cp a.txt copied.txt && echo "$(cat a.txt)" | tee teed.txt && cat made.txt',
      `echo pwned > ../${o}/victim.txt`,
      'cd .. && echo pwned > escaped-by-cd.txt',
      `echo pwned > ${kit.out}/victim.txt`,
      `echo pwned | tee ${kit.out}/tee.txt`,
      `cp a.txt ${kit.out}/copied.txt`,
      `cat > ${kit.out}/heredoc.txt <<'EOF'\npwned\nEOF`,
      `echo "$(echo pwned > ${kit.out}/subst.txt)"`,
      'env -C .. sh -c "echo pwned > escaped-by-env.txt"',
      'echo pwned > ~/tandem-sbx-home.txt',
    ]);
    assert.match(res[0]!, /^Exit code: 0\n.*alpha[\s\S]*inside/s, res[0]);
    for (const k of [1, 2, 3, 4, 5, 6, 8, 9]) assert.match(res[k]!, /Read-only file system/, `command ${k}: ${res[k]}`);
    assert.deepEqual(treeFingerprint(kit.out), outsideBefore, 'nothing outside changed');
    // Named, not listed: other test runs create and remove folders in /var/tmp meanwhile.
    for (const f of ['escaped-by-cd.txt', 'escaped-by-env.txt']) assert.ok(!fs.existsSync(path.join('/var/tmp', f)), `${f} appeared beside the workspace`);
    assert.ok(!fs.existsSync(path.join(process.env.HOME ?? '/root', 'tandem-sbx-home.txt')));
    assert.equal(fs.readFileSync(path.join(kit.ws, 'made.txt'), 'utf8'), 'inside\n');
    assert.equal(fs.readFileSync(path.join(kit.ws, 'teed.txt'), 'utf8'), 'alpha\n');
  });

  it('.git, editor tasks and other files that run code stay unchanged; ones a command creates are removed and reported', async () => {
    const res = await runCommands([
      "printf '#!/bin/sh\\ntouch pwned\\n' > .git/hooks/pre-commit",
      'echo "[core] hooksPath = evil" >> .git/config',
      `echo '{"tasks":[{"runOptions":{"runOn":"folderOpen"}}]}' > .vscode/tasks.json`,
      "echo 'touch pwned' > .envrc && mkdir -p .github/workflows && echo 'on: push' > .github/workflows/x.yml && echo created",
      'echo ok > ordinary.txt && cat ordinary.txt',
    ]);
    for (const k of [0, 1, 2]) assert.match(res[k]!, /Read-only file system/, `command ${k}: ${res[k]}`);
    assert.match(res[3]!, /created/);
    assert.match(res[3]!, /\[sandbox\] removed \.envrc/);
    assert.match(res[3]!, /\[sandbox\] removed \.github\/workflows/);
    assert.match(res[4]!, /^Exit code: 0\nok/);
    assert.ok(!fs.existsSync(path.join(kit.ws, '.git', 'hooks', 'pre-commit')));
    assert.equal(fs.readFileSync(path.join(kit.ws, '.git', 'config'), 'utf8'), '[core]\n\tbare = false\n');
    assert.ok(!fs.existsSync(path.join(kit.ws, '.vscode', 'tasks.json')));
    assert.ok(!fs.existsSync(path.join(kit.ws, '.envrc')));
    assert.ok(!fs.existsSync(path.join(kit.ws, '.github', 'workflows')));
    assert.equal(fs.readFileSync(path.join(kit.ws, 'ordinary.txt'), 'utf8'), 'ok\n');
  });

  it('secret files read empty; ordinary files read whole', async () => {
    const res = await runCommands(['cat .env server.pem; echo "[size $(wc -c < .env)]"; cat a.txt']);
    assert.doesNotMatch(res[0]!, /hunter2|MIIEsecret/);
    assert.match(res[0]!, /\[size 0\][\s\S]*alpha/);
    assert.equal(fs.readFileSync(path.join(kit.ws, '.env'), 'utf8'), 'DB_PASSWORD=hunter2\n', 'and the file itself is untouched');
  });

  it('nothing outlives the command (setsid, nohup, &) and nothing outside is visible in /proc', async () => {
    const res = await runCommands([
      "setsid sh -c 'sleep 2; echo late > late-setsid.txt' & nohup sh -c 'sleep 2; echo late > late-nohup.txt' >/dev/null 2>&1 & " +
        "(sleep 2; echo late > late-bg.txt) & setsid sh -c 'echo now > now.txt'; sleep 0.5; echo started",
      'ls /proc | grep -cE "^[0-9]+$"; ps -e -o comm= | tr "\\n" " "',
    ]);
    assert.match(res[0]!, /started/);
    assert.equal(fs.readFileSync(path.join(kit.ws, 'now.txt'), 'utf8'), 'now\n', 'a detached job runs while the command does');
    await new Promise((r) => setTimeout(r, 3_500));
    for (const f of ['late-setsid.txt', 'late-nohup.txt', 'late-bg.txt']) assert.ok(!fs.existsSync(path.join(kit.ws, f)), `${f} was written after the command ended`);
    const count = Number(/Exit code: 0\n(\d+)/.exec(res[1]!)?.[1]);
    assert.ok(count > 0 && count <= 6, `only the sandbox's own processes are visible: ${res[1]}`);
    assert.doesNotMatch(res[1]!, /node|mocha/, 'not the CLI, not the test runner');
  });

  it('the key is not in the environment, in any visible /proc/*/environ, nor in /proc/$PPID/environ', async () => {
    const res = await runCommands([
      'env | grep -c API_KEY || true',
      'printenv OPENAI_API_KEY TANDEM_API_KEY | cut -c9-30 || true; echo "[end]"',
      'cat /proc/$PPID/environ /proc/1/environ /proc/*/environ 2>/dev/null | tr "\\0" "\\n" | grep -c "sk-sbx" || true',
      'echo ok-without-key',
    ]);
    assert.match(res[0]!, /^Exit code: 0\n0\b/, res[0]);
    assert.match(res[1]!, /^Exit code: 0\n\s*\[end\]/, res[1]);
    assert.match(res[2]!, /^Exit code: 0\n0\b/, res[2]);
    assert.match(res[3]!, /ok-without-key/);
    for (const r of res) assert.ok(!r.includes(KEY.slice(8, 16)), r);
  });

  it('a command marked network: true is not covered by --approve all: refused headless, saying it needs the network', async () => {
    const r = await runCliAgainst(kit.cli, [calls(tc('run_command', { command: 'echo fetched > got.txt', network: true })), text('done')], kit.ws, ['--role', 'actor', '--approve', 'all', 'go'], {});
    kit.server = r.server;
    assert.equal(r.run.code, 0, r.run.stderr);
    const res = r.server.chatRequests()[1]!.messages.filter((m: { role: string }) => m.role === 'tool').at(-1).content as string;
    assert.match(res, /needs the network/, res);
    assert.ok(!fs.existsSync(path.join(kit.ws, 'got.txt')), 'nothing ran');
  });

  it('the network is off; on with TANDEM_SANDBOX_NETWORK=1 the same command reaches the same port', async () => {
    const listener = net.createServer((s) => s.end('hello-from-outside\n'));
    await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
    const port = (listener.address() as AddressInfo).port;
    const probe = `exec 3<>/dev/tcp/127.0.0.1/${port} && cat <&3`;
    try {
      const off = await runCommands([probe]);
      assert.match(off[0]!, /Exit code: [1-9]/, off[0]);
      assert.match(off[0]!, /Connection refused|No such file|cannot|refused/i, off[0]);
      assert.doesNotMatch(off[0]!, /hello-from-outside/);
      await kit.server?.close();
      kit.server = undefined;
      const on = await runCommands([probe], { TANDEM_SANDBOX_NETWORK: '1' });
      assert.match(on[0]!, /Exit code: 0\nhello-from-outside/, on[0]);
    } finally {
      listener.close();
    }
  });
});
