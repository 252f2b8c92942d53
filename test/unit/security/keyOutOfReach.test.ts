/**
 * The key stays out of reach, through the built CLI: a short key given as OPENAI_API_KEY (the CLI
 * reads it as the key too) is not in a command's environment, a slice of it in a file or a
 * command's output is masked, and an endpoint that echoes the key back as assistant text, split
 * across streamed deltas, has it masked in the output, the JSON events and the saved history.
 * And without a sandbox (TANDEM_BWRAP=off) `--approve all` no longer covers commands: headless,
 * each is refused saying why, while file edits are still auto-approved.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ScriptedServer } from '../../support/scriptedServer';
import { buildCli } from '../../support/cliRunner';
import { calls, runCliAgainst, tc, tempDir, text } from './securityKit';

const SHORT_KEY = 'k3y-Zq81xW5v'; // 12 characters: shorter than the old 16-character masking threshold

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

describe('security: the key is out of reach of commands, and masked in every piece', function () {
  this.timeout(60_000);
  let cli: string;
  let ws: string;
  let data: string;
  let server: ScriptedServer | undefined;
  before(async () => {
    cli = await buildCli();
  });
  beforeEach(() => {
    ws = tempDir('tandem-sec-key2-');
    data = tempDir('tandem-sec-key2-data-');
    fs.writeFileSync(path.join(ws, 'a.txt'), 'alpha\n');
    // A file that happens to hold a 9-character slice of the key.
    fs.writeFileSync(path.join(ws, 'leak.txt'), `token fragment: ${SHORT_KEY.slice(2, 11)} end\n`);
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    fs.rmSync(ws, { recursive: true, force: true });
    fs.rmSync(data, { recursive: true, force: true });
  });

  const toolResults = (s: ScriptedServer) => s.chatRequests().slice(1).map((b) => b.messages.filter((m: { role: string }) => m.role === 'tool').at(-1)?.content as string);
  const hasPiece = (s: string) => {
    for (let i = 0; i + 8 <= SHORT_KEY.length; i++) if (s.includes(SHORT_KEY.slice(i, i + 8))) return true;
    return false;
  };

  it('OPENAI_API_KEY is not in a command\'s environment, and slices of a short key are masked in results', async () => {
    const r = await runCliAgainst(cli, [
      calls(tc('run_command', { command: 'env | grep -c API_KEY || true; printenv OPENAI_API_KEY | cut -c3-11 || true; echo "[end]"' })),
      calls(tc('read_file', { path: 'leak.txt' })),
      calls(tc('run_command', { command: 'cat leak.txt' })),
      text('done'),
    ], ws, ['--role', 'actor', '--approve', 'all', 'go'], { TANDEM_API_KEY: undefined, OPENAI_API_KEY: SHORT_KEY, TANDEM_DATA_DIR: data });
    server = r.server;
    assert.equal(r.run.code, 0, r.run.stderr);
    assert.equal(r.server.requests[0]!.headers.authorization, `Bearer ${SHORT_KEY}`, 'the key was really used');
    const res = toolResults(r.server);
    assert.match(res[0]!, /^Exit code: 0\n0\n\[end\]/, res[0]);
    assert.match(res[1]!, /token fragment: \*\*\* end/, res[1]);
    assert.match(res[2]!, /token fragment: \*\*\* end/, res[2]);
    for (const x of [...res, r.run.stdout, r.run.stderr]) assert.ok(!hasPiece(x), x);
    for (const f of filesUnder(data)) assert.ok(!hasPiece(fs.readFileSync(f, 'latin1')), f);
  });

  it('an endpoint echoing the key as assistant text, split across deltas: masked in output, JSON events and history', async () => {
    const echo = `Your key is ${SHORT_KEY} and again ${SHORT_KEY.slice(1)}!`;
    for (const json of [false, true]) {
      const r = await runCliAgainst(cli, [{ type: 'text', text: echo, chunkSize: 3 }], ws, ['--role', 'actor', ...(json ? ['--json'] : []), 'hi'], {
        TANDEM_API_KEY: SHORT_KEY,
        TANDEM_DATA_DIR: data,
      });
      await r.server.close();
      assert.equal(r.run.code, 0, r.run.stderr);
      const shown = json
        ? r.run.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l)).filter((e) => e.type === 'text_appended').map((e) => e.text).join('')
        : r.run.stdout;
      assert.match(shown, /Your key is \*\*\* and again \*\*\*!/, shown);
      assert.ok(!hasPiece(r.run.stdout + r.run.stderr), r.run.stdout);
    }
    const files = filesUnder(data);
    assert.ok(files.length > 0);
    for (const f of files) assert.ok(!hasPiece(fs.readFileSync(f, 'latin1')), f);
  });

  it('without a sandbox, --approve all does not cover commands: refused headless with the reason; edits still go through', async () => {
    const r = await runCliAgainst(cli, [
      calls(tc('run_command', { command: 'echo ran > ran.txt' }), tc('write_file', { path: 'b.txt', content: 'bee\n' })),
      text('done'),
    ], ws, ['--role', 'actor', '--approve', 'all', 'go'], { TANDEM_BWRAP: 'off' });
    server = r.server;
    assert.equal(r.run.code, 0, r.run.stderr);
    const tools = r.server.chatRequests()[1]!.messages.filter((m: { role: string }) => m.role === 'tool');
    assert.match(tools[0].content, /no sandbox.*TANDEM_BWRAP=off.*each command needs a person's approval/s, tools[0].content);
    assert.ok(!fs.existsSync(path.join(ws, 'ran.txt')), 'the command did not run');
    assert.equal(fs.readFileSync(path.join(ws, 'b.txt'), 'utf8'), 'bee\n');
    assert.match(r.run.stderr, /sandbox/i, 'the run says so');
  });
});
