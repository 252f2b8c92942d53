/**
 * Tandem against llama.cpp's own llama-server — real OpenAI-compatible server software nobody here
 * wrote — running a tiny model whose answers are fixed by its hand-written weights (see
 * support/tinyModel.ts): after the assistant header it calls a tool, after a tool result it says
 * "OK". The server's grammar does the rest: tool calls and `json_schema` answers come out well formed.
 * Through the core (an Agent with the product's tools on a temp workspace) and the built CLI.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildCli, runCliProcess } from '../support/cliRunner';
import { llamaAgent, TINY_MODEL, type LlamaAgent } from './support/llamaAgent';
import { requireLlamaServer, startLlamaServer, type RunningLlamaServer } from './support/llamaServer';
import { Plan } from '../../src/protocol/plan';

const JINJA_HINT = /Start llama-server with --jinja/;

describe('Tandem against a real llama-server', function () {
  // A cold server loads the model and evaluates a prompt of a few thousand tokens on a shared CPU.
  this.timeout(180_000);
  let server: RunningLlamaServer | undefined;
  let a: LlamaAgent | undefined;
  let cli: string;
  let ws: string;

  before(async () => {
    await requireLlamaServer();
    cli = await buildCli();
  });
  beforeEach(() => {
    ws = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-llama-cli-'));
    fs.writeFileSync(path.join(ws, 'README.md'), '# demo\n');
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && server) console.error(`--- llama-server log (tail) ---\n${server.log().slice(-3000)}`);
    await server?.close();
    server = undefined;
    a?.close();
    a = undefined;
    fs.rmSync(ws, { recursive: true, force: true });
  });

  const cliEnv = (extra: Record<string, string> = {}) => ({ TANDEM_API_KEY: 'sk-no-key-needed', ...extra });

  describe('with --jinja', () => {
    it('a turn: the model\'s tool call runs, then its answer streams in, with the usage the server reported', async () => {
      server = await startLlamaServer({ behaviour: 'tool-then-answer', jinja: true });
      a = llamaAgent({ baseURL: server.baseURL, files: { 'notes.txt': 'hello\n' } });
      assert.equal(await a.agent.send('What files are in this workspace?'), 'done');
      const calls = a.cardsOf('tool_call');
      assert.deepEqual(calls.map((c) => [c.tool, c.status]), [['list_files', 'done']]);
      assert.match(calls[0].result ?? '', /notes\.txt/, 'the real tool ran on the workspace');
      const answer = a.cardsOf('text').filter((c) => c.author === 'assistant').map((c) => c.text).join('');
      assert.equal(answer, 'OK');
      const answerCard = a.cardsOf('text').find((c) => c.author === 'assistant' && c.text === 'OK')!;
      // The card appeared empty and streaming, and the text arrived in deltas (one per token here).
      const added = a.events.find((e) => e.type === 'card_added' && e.card.id === answerCard.id);
      assert.ok(added?.type === 'card_added' && added.card.kind === 'text' && added.card.streaming === true && added.card.text === '');
      const deltas = a.events.filter((e) => e.type === 'text_appended' && e.id === answerCard.id);
      assert.equal(deltas.map((e) => (e.type === 'text_appended' ? e.text : '')).join(''), 'OK');
      const usage = a.cardsOf('usage');
      assert.equal(usage.length, 2, 'one usage card per request');
      for (const u of usage) {
        assert.ok(u.tokens_in > 500, `the server counted the prompt (${u.tokens_in} tokens)`);
        assert.equal(u.estimated, undefined, 'usage came from the server, not estimated');
      }
      assert.equal(server.chatRequests(), 2);
    });

    it('the CLI prints the tool call and the streamed answer, and exits 0', async () => {
      server = await startLlamaServer({ behaviour: 'tool-then-answer', jinja: true });
      const r = await runCliProcess(cli, ['run', '--workspace', ws, '--base-url', server.baseURL, '--model', TINY_MODEL, 'What files are here?'], { env: cliEnv(), timeoutMs: 150_000 });
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /✓ list \./, 'the list_files call, as the CLI summarises it');
      assert.match(r.stdout, /\bOK\b/);
      assert.equal(server.chatRequests(), 2);
    });

    it('a plan requested with the strict schema comes back grammar-constrained: valid on the first answer, no repair', async () => {
      server = await startLlamaServer({ behaviour: 'tool-then-answer', jinja: true });
      a = llamaAgent({ baseURL: server.baseURL, role: 'planner' });
      assert.equal(await a.agent.send('Plan a README for this project.', { requirePlan: true }), 'done');
      const plans = a.cardsOf('plan');
      assert.equal(plans.length, 1, 'one plan card');
      assert.deepEqual(plans[0].errors, []);
      assert.ok(plans[0].plan, 'the plan validated');
      assert.ok(Plan.safeParse(plans[0].plan).success);
      assert.ok(plans[0].plan!.goal.length >= 1, 'minLength held');
      assert.ok(plans[0].plan!.steps.length >= 1, 'minItems held');
      // The tool call, the answer after it, then the one plan request: no repair request.
      assert.equal(server.chatRequests(), 3);
      const planRequest = JSON.parse(server.lastRequestBody()!);
      assert.equal(planRequest.response_format?.type, 'json_schema', 'the plan was asked for with the strict schema');
      assert.equal(planRequest.response_format.json_schema.strict, true);
    });

    it('a prompt larger than the server\'s context fails at once, naming the context-window setting', async () => {
      server = await startLlamaServer({ behaviour: 'tool-then-answer', jinja: true, ctxSize: 512 });
      a = llamaAgent({ baseURL: server.baseURL, settings: (s) => ({ ...s, limits: { ...s.limits, maxRetries: 2 } }) });
      assert.equal(await a.agent.send('What files are here?'), 'error');
      const err = a.cardsOf('error')[0];
      assert.ok(err, 'an error card');
      assert.match(err.message, /context/i);
      assert.match(err.message, /TANDEM_CONTEXT_WINDOW|contextWindow/);
      assert.equal(server.chatRequests(), 1, 'not retried');
    });

    it('a wrong API key (--api-key) is refused once, with the auth failure named, not retried', async () => {
      server = await startLlamaServer({ behaviour: 'tool-then-answer', jinja: true, apiKey: 'sk-the-right-key' });
      a = llamaAgent({ baseURL: server.baseURL, apiKey: 'sk-a-wrong-key', settings: (s) => ({ ...s, limits: { ...s.limits, maxRetries: 2 } }) });
      assert.equal(await a.agent.send('What files are here?'), 'error');
      const err = a.cardsOf('error')[0];
      assert.equal(err.failure, 'auth');
      assert.match(err.message, /refused the API key \(HTTP 401\)/);
      assert.doesNotMatch(JSON.stringify(a.events), /sk-a-wrong-key/, 'the key is never shown');
      assert.equal(server.chatRequests(), 1);
    });

    it('the server killed mid-answer: the text so far is kept and the turn ends with a connection error', async () => {
      let kill: Promise<void> | undefined;
      server = await startLlamaServer({ behaviour: 'endless', jinja: true });
      const s = server;
      a = llamaAgent({
        baseURL: s.baseURL,
        settings: (st) => ({ ...st, limits: { ...st.limits, maxRetries: 1 } }),
        onEvent: (e) => {
          if (e.type === 'text_appended' && !kill) kill = s.kill();
        },
      });
      assert.equal(await a.agent.send('Say OK forever.'), 'error');
      await kill;
      const text = a.cardsOf('text').filter((c) => c.author === 'assistant').map((c) => c.text).join('');
      assert.match(text, /^(OK)+O?$/, `the partial answer is kept (${JSON.stringify(text.slice(0, 40))})`);
      const err = a.cardsOf('error')[0];
      assert.ok(err, 'an error card');
      assert.match(err.message, /cut off|connection was (reset|refused)|Could not reach/);
    });
  });

  describe('with --no-jinja', () => {
    it('a request with tools fails at once with the --jinja hint, not retried', async () => {
      server = await startLlamaServer({ behaviour: 'tool-then-answer', jinja: false });
      a = llamaAgent({ baseURL: server.baseURL, settings: (s) => ({ ...s, limits: { ...s.limits, maxRetries: 2 } }) });
      assert.equal(await a.agent.send('What files are here?'), 'error');
      const err = a.cardsOf('error')[0];
      assert.match(err.message, JINJA_HINT);
      assert.equal(err.retryable, false);
      assert.equal(server.chatRequests(), 1, 'the deterministic error was not retried');
    });

    it('the CLI says the same, once, and exits non-zero', async () => {
      server = await startLlamaServer({ behaviour: 'tool-then-answer', jinja: false });
      const r = await runCliProcess(cli, ['run', '--workspace', ws, '--base-url', server.baseURL, '--model', TINY_MODEL, 'What files are here?'], { env: cliEnv({ TANDEM_MAX_RETRIES: '2' }), timeoutMs: 150_000 });
      assert.notEqual(r.code, 0);
      assert.match(r.stdout + r.stderr, JINJA_HINT);
      assert.equal(server.chatRequests(), 1);
    });
  });
});
