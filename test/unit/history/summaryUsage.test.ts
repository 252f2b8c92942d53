/**
 * The condensing summary is a request like any other: the agent's one meter counts it in the
 * usage card, the turn total and the task total (and history's meta, built from the same cards).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createNodeHost } from '../../../src/host/node/nodeHost';
import { defaultSettings } from '../../../src/core/settings/settings';
import { HistoryStore } from '../../../src/core/history/historyStore';
import { startTask, type RunningTask } from '../../../src/core/runtime/runningTask';
import { HeadlessAsker } from '../../../src/host/node/headlessAsker';
import { ScriptedServer } from '../../support/scriptedServer';
import type { HostEvent, UsageCard } from '../../../src/protocol';

type Totals = Extract<HostEvent, { type: 'usage_total' }>;

describe('the condensing summary request is counted in the turn and task totals', function () {
  this.timeout(30_000);
  let tmp: string;
  let server: ScriptedServer | undefined;
  let session: RunningTask | undefined;
  afterEach(async () => {
    await session?.close();
    await server?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('a condensing turn: usage_total.task includes the summary tokens, and the turn total too', async () => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-sumusage-')));
    const ws = path.join(tmp, 'ws');
    fs.mkdirSync(ws);
    const long = 'Details about how arguments are parsed and how the flag travels through the program. '.repeat(20);
    // Answers and the summary alike report 100 in / 10 out, so every request adds the same to the totals.
    server = await ScriptedServer.start([{ type: 'text', text: long, repeat: true, usage: { prompt_tokens: 100, completion_tokens: 10 } }]);
    const settings = defaultSettings({ baseURL: server.url, apiKey: 'sk-test', models: { planner: 'gpt-4o', actor: 'gpt-4o' } });
    settings.limits = { ...settings.limits, maxRetries: 0, requestIdleTimeoutMs: 5000 };
    settings.contextWindow = 9000;
    settings.maxTokens = 300;
    settings.summaryModel = 'gpt-4o-mini';
    const host = createNodeHost({ roots: [ws], asker: new HeadlessAsker('none') });
    const events: HostEvent[] = [];
    session = startTask({ host, history: new HistoryStore(path.join(tmp, 'history')), settings: () => settings, workspace: ws }, { role: 'planner', sink: (e) => events.push(e) });
    const agent = session.agent;

    const summaries = () => agent.cards().filter((c): c is UsageCard => c.kind === 'usage' && c.outcome === 'summary');
    for (let i = 0; i < 30 && summaries().length === 0; i++) assert.equal(await agent.send(`Tell me more, part ${i}`), 'done');
    assert.equal(summaries().length, 1, 'the conversation was condensed once');
    assert.ok(server.chatRequests().some((b) => b.model === 'gpt-4o-mini'), 'the summary request went to the server');

    const usage = agent.cards().filter((c): c is UsageCard => c.kind === 'usage');
    const totals = events.filter((e): e is Totals => e.type === 'usage_total');
    const last = totals.at(-1)!;
    assert.equal(last.task.tokens_in, usage.reduce((n, u) => n + u.tokens_in, 0));
    assert.equal(last.task.tokens_in, 100 * server.chatRequests().length, 'every request the server saw, the summary included');
    // The condensing turn made two requests: the summary and the answer.
    assert.equal(last.turn.tokens_in, 200);
    assert.equal(last.turn.tokens_out, 20);
  });
});
