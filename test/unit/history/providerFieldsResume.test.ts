/**
 * Provider fields that must go back to the provider (Gemini's thought signature on a tool call,
 * DeepSeek's reasoning_content on a tool-call turn, unknown message fields) survive a resumed task:
 * the first run and the resumed one are separate CLI processes, so the second request is rebuilt
 * from the saved history, and what it sends is read off the scripted server's socket.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildCli, runCliProcess } from '../../support/cliRunner';
import { ScriptedServer, type ScriptStep } from '../../support/scriptedServer';
import { text } from '../../support/scriptSteps';

const fixture = (name: string): ScriptStep => ({ type: 'raw_sse', body: fs.readFileSync(path.join(process.cwd(), 'test', 'fixtures', 'streams', name), 'utf8'), pieces: 4 });

/** A tool call whose message carries a provider field of its own and no text or reasoning (so no text card). */
const UNKNOWN_MESSAGE_FIELD_SSE = [
  { choices: [{ index: 0, delta: { role: 'assistant', content: null, x_session_state: { turn: 'st-41' } }, finish_reason: null }] },
  { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'call_x1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.txt"}' } }] }, finish_reason: null }] },
  { choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } },
].map((c) => `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 1, model: 'm', ...c })}\n\n`).join('') + 'data: [DONE]\n\n';

describe('provider fields across a resumed task (CLI, two processes)', function () {
  this.timeout(60_000);
  let cli: string;
  let tmp: string;
  let ws: string;
  let server: ScriptedServer | undefined;
  before(async () => {
    cli = await buildCli();
  });
  beforeEach(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-pfresume-')));
    ws = path.join(tmp, 'ws');
    fs.mkdirSync(ws);
    for (const [f, t] of [['a.txt', 'alpha\n'], ['b.txt', 'bravo\n'], ['notes.txt', 'hi\n']]) fs.writeFileSync(path.join(ws, f), t);
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  /** Runs the first turn, then resumes the saved task; returns the assistant message the resumed request sent. */
  async function resumedAssistant(first: ScriptStep): Promise<any> {
    server = await ScriptedServer.start([first, text('Read.'), text('Still here.')]);
    const env = { TANDEM_API_KEY: 'sk-x', TANDEM_BASE_URL: server.url, TANDEM_MAX_RETRIES: '0', TANDEM_DATA_DIR: path.join(tmp, 'data') };
    const r1 = await runCliProcess(cli, ['run', '--workspace', ws, '--role', 'actor', 'read the files'], { env });
    assert.equal(r1.code, 0, r1.stderr);
    const id = /\[task (\S+) saved/.exec(r1.stderr)?.[1];
    assert.ok(id, r1.stderr);
    const r2 = await runCliProcess(cli, ['run', '--workspace', ws, '--resume', id!, 'and now?'], { env });
    assert.equal(r2.code, 0, r2.stderr);
    const sent = server.chatRequests()[2].messages as any[];
    assert.equal(sent[sent.length - 1].content, 'and now?', 'the third request is the resumed one');
    const assistant = sent.find((m) => m.role === 'assistant' && m.tool_calls);
    assert.ok(assistant, 'the earlier tool-call turn was rebuilt');
    return assistant;
  }

  it('Gemini: the thought signature goes back on its tool call after a resume', async () => {
    const assistant = await resumedAssistant(fixture('gemini-parallel-empty-ids.sse'));
    assert.equal(assistant.tool_calls.length, 2);
    assert.deepEqual(assistant.tool_calls[0].extra_content, { google: { thought_signature: 'CiQBVKhc7sig1Q==' } });
    assert.equal(assistant.tool_calls[1].extra_content, undefined);
  });

  it('DeepSeek: reasoning_content goes back on the tool-call turn after a resume', async () => {
    const assistant = await resumedAssistant(fixture('deepseek-reasoning-tool-call.sse'));
    assert.equal(assistant.reasoning_content, 'I should read the file first.');
    assert.equal(assistant.tool_calls[0].function.name, 'read_file');
  });

  it('a message field on a turn with no text (kept on its first call\'s card) goes back after a resume', async () => {
    const assistant = await resumedAssistant({ type: 'raw_sse', body: UNKNOWN_MESSAGE_FIELD_SSE, pieces: 3 });
    assert.deepEqual(assistant.x_session_state, { turn: 'st-41' });
    assert.equal(assistant.content, null);
  });
});
