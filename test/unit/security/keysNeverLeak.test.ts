/**
 * Promise 3: the API key never reaches settings, logs or history. The built CLI runs with a
 * distinctive key, debug logging and history on; one endpoint answers normally (tools, writes, a
 * question), one answers every request with an error whose body echoes the Authorization header
 * it received. Every output stream and every file written under the data dir and the workspace
 * is searched for the key (and for its base64 form, in case something encodes it).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import type { ScriptedServer } from '../../support/scriptedServer';
import { buildCli, runCliProcess, type CliRun } from '../../support/cliRunner';
import { calls, runCliAgainst, tc, tempDir, text } from './securityKit';

const KEY = 'sk-tandem-SECRET-7f3a9c1e5b2d8a4f6e0c';
const needles = [KEY, Buffer.from(KEY).toString('base64'), KEY.slice(8)];

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out.push(p);
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return out;
}

function assertNoKey(where: string, content: string | Buffer): void {
  const s = typeof content === 'string' ? content : content.toString('latin1');
  for (const n of needles) assert.ok(!s.includes(n), `the key (${n === KEY ? 'plain' : 'encoded/partial'}) leaked into ${where}`);
}

describe('security: the API key never reaches output, logs, history or settings', function () {
  this.timeout(60_000);
  let cli: string;
  let ws: string;
  let data: string;
  let server: ScriptedServer | undefined;

  before(async () => {
    cli = await buildCli();
  });
  beforeEach(() => {
    ws = tempDir('tandem-sec-keys-');
    data = tempDir('tandem-sec-keys-data-');
    fs.writeFileSync(path.join(ws, 'a.txt'), 'alpha\n');
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    fs.rmSync(ws, { recursive: true, force: true });
    fs.rmSync(data, { recursive: true, force: true });
  });

  const env = () => ({ TANDEM_API_KEY: KEY, TANDEM_LOG: 'debug', TANDEM_DATA_DIR: data });

  it('a full Actor turn with debug logging and history: no stream and no file holds the key', async () => {
    const question = { question: 'Proceed?', severity: 'minor', options: [{ label: 'yes', value: 'y' }, { label: 'no', value: 'n' }], default: 'y', allow_custom: false };
    const runs: CliRun[] = [];
    for (const json of [true, false]) {
      const r = await runCliAgainst(cli, [
        calls(tc('read_file', { path: 'a.txt' })),
        calls(tc('ask_question', question)),
        calls(tc('write_file', { path: 'a.txt', content: 'ALPHA\n' }), tc('run_command', { command: 'env | grep -c TANDEM_ || true' })),
        text('done'),
      ], ws, ['--role', 'actor', '--approve', 'all', '--answer', 'default', ...(json ? ['--json'] : []), 'change a.txt'], env());
      await r.server.close();
      server = r.server;
      assert.equal(r.run.code, 0, r.run.stderr);
      assert.equal(r.server.requests[0]!.headers.authorization, `Bearer ${KEY}`, 'the key was really used');
      runs.push(r.run);
    }
    assert.ok(runs[0]!.stderr.length > 0, 'debug logging wrote something');
    assert.equal(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8'), 'ALPHA\n', 'the turn really ran');
    // History was written, and its own commands print nothing secret either.
    const files = filesUnder(data);
    assert.ok(files.length > 0, 'history wrote files under TANDEM_DATA_DIR');
    const list = await runCliProcess(cli, ['history', '--workspace', ws, '--json'], { env: env() });
    assert.equal(list.code, 0, list.stderr);
    runs.push(list);
    const ids = [...list.stdout.matchAll(/"id":"([^"]+)"/g)].map((m) => m[1]!);
    assert.ok(ids.length >= 2, list.stdout);
    for (const id of ids) {
      for (const sub of [['show', id], ['show', id, '--json'], ['export', id]]) {
        const r = await runCliProcess(cli, ['history', ...sub, '--workspace', ws], { env: env() });
        assert.equal(r.code, 0, r.stderr);
        runs.push(r);
      }
    }
    runs.forEach((r, i) => {
      assertNoKey(`stdout of run ${i}`, r.stdout);
      assertNoKey(`stderr of run ${i}`, r.stderr);
    });
    for (const f of [...filesUnder(data), ...filesUnder(ws)]) assertNoKey(f, fs.readFileSync(f));
  });

  it('an endpoint that echoes the Authorization header in its error body: the key appears nowhere', async () => {
    const echoed: string[] = [];
    const echo = http.createServer((req, res) => {
      const auth = String(req.headers.authorization ?? '');
      echoed.push(auth);
      const body = JSON.stringify({ error: { message: `Incorrect API key provided: ${auth}. Your header was "Authorization: ${auth}"`, type: 'invalid_request_error', code: 'invalid_api_key', key: auth } });
      const status = req.url?.includes('chat') ? (echoed.length % 2 ? 401 : 400) : 403;
      res.writeHead(status, { 'content-type': 'application/json', 'x-echo-auth': auth });
      res.end(body);
    });
    await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(echo.address() as AddressInfo).port}/v1`;
    try {
      const runs: CliRun[] = [];
      for (const extra of [['--json'], [], ['--role', 'actor']]) {
        const r = await runCliProcess(cli, ['run', '--workspace', ws, '--base-url', url, ...extra, 'hello'], { env: { ...env(), TANDEM_MAX_RETRIES: '1' } });
        assert.equal(r.code, 1, r.stderr);
        runs.push(r);
      }
      // A 400 on the second try is a different error path (bad request) — also echoed.
      assert.ok(echoed.length >= 3 && echoed.every((a) => a === `Bearer ${KEY}`), 'the endpoint really saw (and echoed) the key');
      for (const r of runs) {
        assertNoKey('stdout', r.stdout);
        assertNoKey('stderr', r.stderr);
      }
      assert.match(runs[1]!.stderr, /error:/);
      for (const f of [...filesUnder(data), ...filesUnder(ws)]) assertNoKey(f, fs.readFileSync(f));
    } finally {
      await new Promise<void>((r) => echo.close(() => r()));
    }
  });

  it('a command the Actor runs does not inherit TANDEM_API_KEY (so it cannot land in a tool result, the next request or history)', async () => {
    const r = await runCliAgainst(cli, [
      calls(tc('run_command', { command: 'echo "k=${TANDEM_API_KEY:-unset}"; env' })),
      text('done'),
    ], ws, ['--role', 'actor', '--approve', 'all', '--json', 'print the env'], env());
    server = r.server;
    assert.equal(r.run.code, 0, r.run.stderr);
    assert.match(r.run.stdout, /k=unset/, 'the command ran and saw no key');
    assertNoKey('stdout', r.run.stdout);
    assertNoKey('stderr', r.run.stderr);
    assertNoKey('the request that carried the tool result', JSON.stringify(r.server.chatRequests()));
    for (const f of filesUnder(data)) assertNoKey(f, fs.readFileSync(f));
  });

  it('a key from OPENAI_API_KEY printed by a command, or sitting in a file the agent reads, is masked before the model, the output and history', async () => {
    fs.writeFileSync(path.join(ws, 'notes.txt'), `my key is ${KEY} (do not share)\n`);
    const r = await runCliAgainst(cli, [
      calls(tc('read_file', { path: 'notes.txt' })),
      calls(tc('run_command', { command: 'echo "k=$OPENAI_API_KEY"' })),
      text('done'),
    ], ws, ['--role', 'actor', '--approve', 'all', '--json', 'look'], { TANDEM_API_KEY: undefined, OPENAI_API_KEY: KEY, TANDEM_LOG: 'debug', TANDEM_DATA_DIR: data });
    server = r.server;
    assert.equal(r.run.code, 0, r.run.stderr);
    assert.equal(r.server.requests[0]!.headers.authorization, `Bearer ${KEY}`);
    const bodies = JSON.stringify(r.server.chatRequests());
    assert.match(bodies, /my key is \*\*\* \(do not share\)/, 'the file was read, with the key masked');
    assert.match(bodies, /k=\\n/, 'the command ran, without the key in its environment');
    assertNoKey('the requests', bodies);
    assertNoKey('stdout', r.run.stdout);
    assertNoKey('stderr', r.run.stderr);
    for (const f of filesUnder(data)) assertNoKey(f, fs.readFileSync(f));
  });

  it('a short placeholder key (a local server\'s "none") does not garble what the agent reads', async () => {
    fs.writeFileSync(path.join(ws, 'notes.txt'), 'none of this is secret\n');
    const r = await runCliAgainst(cli, [calls(tc('read_file', { path: 'notes.txt' })), text('done')], ws, ['look'], { TANDEM_API_KEY: 'none' });
    server = r.server;
    assert.equal(r.run.code, 0, r.run.stderr);
    assert.match(JSON.stringify(r.server.chatRequests()[1].messages), /none of this is secret/);
  });

  it('the extension contributes no setting that could hold a key, and none a workspace could use to redirect the key or lift approvals', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', '..', 'package.json'), 'utf8'));
    const conf = pkg.contributes?.configuration;
    const props = Object.assign({}, ...(Array.isArray(conf) ? conf : [conf]).map((c: any) => c?.properties ?? {}));
    const names = Object.keys(props);
    assert.ok(names.length > 5 && names.includes('tandem.baseUrl'), names.join(', '));
    for (const n of names) assert.doesNotMatch(n, /key|token(?!s)|secret|password|credential|auth/i, n);
    for (const [n, p] of Object.entries<any>(props)) {
      assert.doesNotMatch(String(p.description ?? p.markdownDescription ?? ''), /paste your (api )?key/i, n);
    }
    // A cloned repository's .vscode/settings.json must not be able to point the endpoint (and with it
    // the key in every request's Authorization header) at its own server, or lift approvals:
    // these settings are read from user (or remote machine) settings only.
    for (const n of ['tandem.baseUrl', 'tandem.autoApprove.edit', 'tandem.autoApprove.create', 'tandem.autoApprove.delete', 'tandem.autoApprove.command', 'tandem.commandAllowList', 'tandem.sandbox.network', 'tandem.sandbox.shownFiles']) {
      assert.ok(['machine', 'application'].includes(props[n]?.scope), `${n} has scope ${props[n]?.scope ?? '(window: a workspace can set it)'}`);
    }
  });
});
