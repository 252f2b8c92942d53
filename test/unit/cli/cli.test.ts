import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { HostEvent } from '../../../src/protocol';
import { ScriptedServer, type ScriptStep } from '../../support/scriptedServer';
import { type CliRun, cliTestKit, runCliProcess } from '../../support/cliRunner';
import { calls, tc, text } from '../../support/scriptSteps';

const KEY = 'sk-cli-very-secret-4242';
const question = { question: 'Which file should I change?', severity: 'major', options: [{ label: 'a.txt', value: 'a' }, { label: 'b.txt', value: 'b' }], default: 'b', allow_custom: false };

describe('tandem CLI (built bundle, child process, scripted server)', function () {
  this.timeout(30_000);
  const kit = cliTestKit({
    prefix: 'tandem-cli-',
    setup(ws) {
      fs.writeFileSync(path.join(ws, 'a.txt'), 'alpha\n');
      fs.writeFileSync(path.join(ws, 'b.txt'), 'bravo\n');
    },
  });

  async function run(steps: ScriptStep[], args: string[], env: Record<string, string | undefined> = {}): Promise<CliRun> {
    kit.server = await ScriptedServer.start(steps);
    return runCliProcess(kit.cli, ['run', '--workspace', kit.ws, '--base-url', kit.server.url, ...args], { env: { TANDEM_API_KEY: KEY, TANDEM_MAX_RETRIES: '0', ...env } });
  }
  const jsonEvents = (r: CliRun) => r.stdout.trim().split('\n').map((l) => HostEvent.parse(JSON.parse(l)));

  it('--help documents every flag and the exit codes (exit 0)', async () => {
    const r = await runCliProcess(kit.cli, ['--help']);
    assert.equal(r.code, 0);
    for (const f of ['--workspace', '--role', '--model', '--base-url', '--approve', '--answer default', '--json', 'TANDEM_API_KEY', 'OPENAI_BASE_URL', 'Exit codes']) assert.ok(r.stdout.includes(f), f);
  });

  for (const [name, args] of [
    ['no command', []],
    ['no prompt', ['run']],
    ['an unknown option', ['run', '--frobnicate', 'x']],
    ['a bad role', ['run', '--role', 'admin', 'x']],
    ['a bad approve mode', ['run', '--approve', 'some', 'x']],
    ['a bad --answer', ['run', '--answer', 'yes', 'x']],
    ['a missing value', ['run', 'x', '--model']],
    ['a workspace that does not exist', ['run', '--workspace', '/nonexistent/tandem', 'x']],
  ] as const) {
    it(`exits 2 with the usage on ${name}`, async () => {
      const r = await runCliProcess(kit.cli, [...args]);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /^tandem: /);
      assert.match(r.stderr, /Usage: tandem run/);
      assert.equal(r.stdout, '');
    });
  }

  it('prints the answer readably and exits 0 when the turn ends', async () => {
    const r = await run([calls(tc('read_file', { path: 'a.txt' })), text('The file says alpha.')], ['what does a.txt say?']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /✓ read a\.txt/);
    assert.match(r.stdout, /The file says alpha\./);
    const body = kit.server!.chatRequests()[0];
    assert.equal(body.model, 'gpt-4o-mini');
    assert.equal(body.messages.at(-1).content, 'what does a.txt say?');
  });

  it('--json prints one valid HostEvent per line, the same objects the panel gets, and never the key', async () => {
    const r = await run([calls(tc('read_file', { path: 'a.txt' })), text('done reading')], ['--json', '--model', 'm-json', 'read a.txt'], { TANDEM_LOG: 'debug' });
    assert.equal(r.code, 0, r.stderr);
    const events = jsonEvents(r);
    assert.deepEqual(events.map((e) => e.seq), events.map((_, i) => i + 1));
    assert.equal(events.at(-1)!.type, 'turn_ended');
    assert.ok(events.some((e) => e.type === 'card_added' && e.card.kind === 'tool_call'));
    assert.ok(events.some((e) => e.type === 'card_added' && e.card.kind === 'usage' && e.card.model === 'm-json'));
    assert.ok(!r.stdout.includes(KEY) && !r.stderr.includes(KEY), 'the key is never printed');
    assert.ok(r.stderr.length > 0, 'debug logging was on');
    assert.equal(kit.server!.requests[0]!.headers.authorization, `Bearer ${KEY}`);
  });

  it('never prints the key even when the endpoint echoes it in an error (exit 1)', async () => {
    const r = await run([{ type: 'fault', fault: 'server_error', status: 401, message: `invalid key ${KEY}` } as ScriptStep], ['--json', 'hi'], { TANDEM_LOG: 'debug' });
    assert.equal(r.code, 1);
    assert.ok(!r.stdout.includes(KEY) && !r.stderr.includes(KEY));
    const err = jsonEvents(r).find((e) => e.type === 'card_added' && e.card.kind === 'error');
    assert.ok(err && err.type === 'card_added' && err.card.kind === 'error' && /refused the API key/.test(err.card.message));
  });

  it('reads the key and URL from OPENAI_* when TANDEM_* are unset, and --base-url wins over the environment', async () => {
    kit.server = await ScriptedServer.start([text('one'), text('two')]);
    const viaEnv = await runCliProcess(kit.cli, ['run', '--workspace', kit.ws, 'hi'], { env: { OPENAI_API_KEY: 'sk-openai-env', OPENAI_BASE_URL: kit.server.url } });
    assert.equal(viaEnv.code, 0, viaEnv.stderr);
    // The model requests only: before assuming a context window the CLI also asks the endpoint (/props, /models).
    const chats = () => kit.server!.requests.filter((r) => r.path.endsWith('/chat/completions'));
    assert.equal(chats()[0]!.headers.authorization, 'Bearer sk-openai-env');
    const flagWins = await runCliProcess(kit.cli, ['run', '--workspace', kit.ws, '--base-url', kit.server.url, 'hi'], { env: { TANDEM_API_KEY: 'sk-t', TANDEM_BASE_URL: 'http://127.0.0.1:9/v1', TANDEM_MAX_RETRIES: '0' } });
    assert.equal(flagWins.code, 0, flagWins.stderr);
    assert.equal(chats()[1]!.headers.authorization, 'Bearer sk-t');
  });

  it('exits 1 with a readable message on a persistent 500', async () => {
    const r = await run([{ type: 'fault', fault: 'server_error', repeat: true }], ['hi'], { TANDEM_MAX_RETRIES: '1' });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /error: The endpoint failed with HTTP 500 after 2 attempts/);
  });

  it('exits 1 and writes nothing when the stream is cut inside write_file arguments', async () => {
    const r = await run([{ type: 'fault', fault: 'cut', calls: [tc('write_file', { path: 'a.txt', content: 'HALF '.repeat(40) })], fraction: 0.5 }], ['--role', 'actor', '--approve', 'all', 'rewrite a.txt']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /cut off and not run/);
    assert.equal(fs.readFileSync(path.join(kit.ws, 'a.txt'), 'utf8'), 'alpha\n');
  });

  it('exits 3 and prints the question when nobody may answer it', async () => {
    const r = await run([calls(tc('ask_question', question)), text('never')], ['change a file']);
    assert.equal(r.code, 3, r.stderr);
    assert.match(r.stderr, /Which file should I change\?/);
    assert.match(r.stderr, /b: b\.txt \(default\)/);
    assert.equal(kit.server!.chatRequests().length, 1);
  });

  it('--answer default answers with the default and carries on (exit 0)', async () => {
    const r = await run([calls(tc('ask_question', question)), text('You chose b.')], ['--answer', 'default', 'change a file']);
    assert.equal(r.code, 0, r.stderr);
    const toolMsg = kit.server!.chatRequests()[1].messages.find((m: any) => m.role === 'tool');
    assert.match(toolMsg.content, /The user chose: b/);
  });

  it('exits 3 at the tool-call limit when nobody may allow more', async () => {
    const r = await run([calls(tc('read_file', { path: 'a.txt' })), calls(tc('read_file', { path: 'b.txt' })), text('never')], ['read both'], { TANDEM_MAX_TOOL_CALLS: '1' });
    assert.equal(r.code, 3, r.stderr);
    assert.match(r.stderr, /Let it continue\?/);
  });

  it('the Planner (default role) is offered no write tools and a model that writes anyway changes nothing', async () => {
    const r = await run([
      calls(tc('write_file', { path: 'a.txt', content: 'pwned' }), tc('read_file', { path: 'a.txt' }), tc('run_command', { command: 'echo pwned > a.txt' }), tc('delete_file', { path: 'b.txt' })),
      text('I cannot.'),
    ], ['--approve', 'all', 'overwrite a.txt']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(fs.readFileSync(path.join(kit.ws, 'a.txt'), 'utf8'), 'alpha\n');
    assert.equal(fs.readFileSync(path.join(kit.ws, 'b.txt'), 'utf8'), 'bravo\n');
    assert.equal((r.stdout.match(/not permitted for the Planner role/g) ?? []).length, 3);
    const offered = kit.server!.toolsOffered()[0]!;
    for (const w of ['write_file', 'edit_file', 'apply_patch', 'delete_file', 'run_command']) assert.ok(!offered.includes(w), w);
  });

  const actorSteps = (): ScriptStep[] => [
    calls(tc('read_file', { path: 'a.txt' })),
    calls(tc('write_file', { path: 'a.txt', content: 'ALPHA\n' }), tc('write_file', { path: 'c.txt', content: 'new\n' })),
    calls(tc('delete_file', { path: 'b.txt' }), tc('run_command', { command: 'echo ran > d.txt' })),
    text('finished'),
  ];
  const state = () => ({
    a: fs.readFileSync(path.join(kit.ws, 'a.txt'), 'utf8'),
    b: fs.existsSync(path.join(kit.ws, 'b.txt')),
    c: fs.existsSync(path.join(kit.ws, 'c.txt')),
    d: fs.existsSync(path.join(kit.ws, 'd.txt')),
  });

  it('without a terminal and without --approve, nothing that needs approval happens (never is the default)', async () => {
    const r = await run(actorSteps(), ['--role', 'actor', 'do it'], { TANDEM_MAX_TOOL_CALLS: '50' });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(state(), { a: 'alpha\n', b: true, c: false, d: false });
    assert.equal((r.stdout.match(/— rejected/g) ?? []).length, 4);
  });

  it('--approve never: the card and the model are told the policy said no and nobody was asked, not that the user rejected', async () => {
    const r = await run(actorSteps(), ['--role', 'actor', '--approve', 'never', 'do it'], { TANDEM_MAX_TOOL_CALLS: '50' });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(state(), { a: 'alpha\n', b: true, c: false, d: false });
    assert.doesNotMatch(r.stdout, /user rejected/i);
    assert.equal((r.stdout.match(/Not approved: .*--approve never.*; nobody was asked\. Nothing was (changed|run)\./g) ?? []).length, 4);
    const told = (kit.server!.chatRequests().at(-1).messages as { role: string; content: string }[]).filter((m) => m.role === 'tool').slice(1);
    assert.equal(told.length, 4);
    for (const m of told) {
      assert.doesNotMatch(m.content, /user rejected/i);
      assert.match(m.content, /^Not approved: .*; nobody was asked\. Nothing was (changed|run)\.$/);
    }
  });

  it('--approve edits writes and creates inside, but does not delete or run commands', async () => {
    const r = await run(actorSteps(), ['--role', 'actor', '--approve', 'edits', 'do it']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(state(), { a: 'ALPHA\n', b: true, c: true, d: false });
  });

  it('--approve all does everything inside the workspace', async () => {
    const r = await run(actorSteps(), ['--role', 'actor', '--approve', 'all', 'do it']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(state(), { a: 'ALPHA\n', b: false, c: true, d: true });
  });

  it('Ctrl-C stops the turn mid-stream and exits 130', async () => {
    kit.server = await ScriptedServer.start([{ type: 'text', text: 'slow words '.repeat(300), chunkSize: 4, chunkDelayMs: 10 }]);
    let sent = false;
    const r = await runCliProcess(kit.cli, ['run', '--workspace', kit.ws, '--base-url', kit.server.url, '--json', 'talk'], {
      env: { TANDEM_API_KEY: KEY },
      onStdout: (all, child) => {
        if (!sent && (all.match(/text_appended/g) ?? []).length >= 3) {
          sent = true;
          child.kill('SIGINT');
        }
      },
    });
    assert.equal(r.code, 130, r.stderr);
    const last = jsonEvents(r).at(-1)!;
    assert.deepEqual([last.type, (last as any).outcome], ['turn_ended', 'stopped']);
  });

  it('--approve all still refuses a path outside the workspace', async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-cli-outside-'));
    try {
      const r = await run([calls(tc('write_file', { path: path.join(outside, 'x.txt'), content: 'pwned' })), text('ok')], ['--role', 'actor', '--approve', 'all', 'write outside']);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(fs.existsSync(path.join(outside, 'x.txt')), false);
      assert.match(r.stdout, /outside the workspace/);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });
});
