/**
 * Promise 5: webview messages are untrusted. Hostile payloads go through the real panel path —
 * MessageBridge (validation) → AgentSession (dispatch) → PanelApprover / PanelQuestionAsker → the
 * real Agent on a temp workspace and the scripted server — with `vscode` stubbed to the few
 * classes those files load. Forged approvals, answers and plan executions must change nothing.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { installVscodeStub } from './vscodeStub';
import { ScriptedServer, type ScriptStep } from '../../support/scriptedServer';
import { createNodeHost } from '../../../src/host/node/nodeHost';
import { defaultSettings } from '../../../src/core/settings/settings';
import { MessageBridge } from '../../../src/panel/messageBridge';
import type { Logger } from '../../../src/core/ports/ports';
import type { Card, PanelOutbound } from '../../../src/protocol';
import { goodPlan, planWithUnknownTool } from '../plans/planFixtures';
import { calls, tc, tempDir, text, treeFingerprint } from './securityKit';

installVscodeStub();
// Loaded after the stub: these files import 'vscode'.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { AgentSession } = require('../../../src/host/vscode/agentSession') as typeof import('../../../src/host/vscode/agentSession');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { PanelApprover } = require('../../../src/host/vscode/panelApprover') as typeof import('../../../src/host/vscode/panelApprover');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { PanelQuestionAsker } = require('../../../src/host/vscode/questionAsker') as typeof import('../../../src/host/vscode/questionAsker');

const keysSet: string[] = [];
const tick = (ms = 30) => new Promise((r) => setTimeout(r, ms));
async function until(cond: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 5000;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await tick(5);
  }
}

interface Panel {
  ws: string;
  server: ScriptedServer;
  approver: InstanceType<typeof PanelApprover>;
  asker: InstanceType<typeof PanelQuestionAsker>;
  session: InstanceType<typeof AgentSession>;
  bridge: MessageBridge;
  posted: PanelOutbound[];
  logs: string[];
  /** Feeds raw data as `webview.onDidReceiveMessage` would, and lets the handler run. */
  receive(...raw: unknown[]): Promise<boolean[]>;
  cards(): Card[];
  close(): Promise<void>;
}

async function panel(steps: ScriptStep[], role: 'planner' | 'actor', files: Record<string, string> = {}): Promise<Panel> {
  const server = await ScriptedServer.start(steps);
  const ws = tempDir('tandem-sec-panel-');
  for (const [rel, t] of Object.entries(files)) fs.writeFileSync(path.join(ws, rel), t);
  const logs: string[] = [];
  const logger: Logger = { info: (m) => logs.push(m), warn: (m) => logs.push(m), error: (m) => logs.push(m), debug: (m) => logs.push(m) };
  const approver = new PanelApprover();
  const asker = new PanelQuestionAsker();
  const host = createNodeHost({ roots: [ws], approver, asker, logger });
  const settings = defaultSettings({ baseURL: server.url, apiKey: 'sk-panel-key', models: { planner: 'p', actor: 'a' } });
  settings.limits = { ...settings.limits, maxRetries: 0 };
  settings.approval = { mode: 'ask', autoApprove: { edit: false, create: false, delete: false, command: false } };
  // The diff approver's chat-facing half is the PanelApprover; open_diff has no editor here.
  const diffLike = { approve: (id: string) => approver.approve(id), reject: (id: string, r?: string) => approver.reject(id, r), openDiff: async () => false };
  const keys = { get: async () => 'sk-panel-key', set: async (k: string) => void keysSet.push(k), delete: async () => {} };
  const session = new AgentSession({ host, approver: diffLike as never, asker, keys: keys as never, settings });
  if (role === 'actor') session.current.setRole('actor', 'test');
  const posted: PanelOutbound[] = [];
  const bridge = new MessageBridge({ post: (b) => void posted.push(...b) }, (m) => session.handle(m), logger);
  return {
    ws, server, approver, asker, session, bridge, posted, logs,
    async receive(...raw) {
      const r = raw.map((m) => bridge.receive(m));
      await tick();
      return r;
    },
    cards: () => session.cards(),
    async close() {
      session.stop();
      bridge.dispose();
      await tick();
      await server.close();
      fs.rmSync(ws, { recursive: true, force: true });
    },
  };
}

describe('security: hostile webview messages through the real panel path', function () {
  this.timeout(20_000);
  let p: Panel | undefined;
  afterEach(async () => {
    await p?.close();
    p = undefined;
    for (const k of ['polluted', 'isAdmin', 'role']) delete (Object.prototype as Record<string, unknown>)[k];
  });

  it('prototype-pollution payloads pollute nothing and are treated as plain data', async () => {
    p = await panel([text('hello back'), text('hello again')], 'planner');
    const first = await p.receive(JSON.parse('{"type":"send","text":"hi","__proto__":{"polluted":"yes","isAdmin":true}}'));
    assert.deepEqual(first, [true], 'a valid message with extra keys is accepted — as plain data');
    await until(() => !p!.session.current.busy && p!.server.chatRequests().length === 1, 'the turn to end');
    assert.deepEqual(await p.receive(JSON.parse('{"type":"send","text":"hi again","constructor":{"prototype":{"polluted":"yes"}}}')), [true]);
    await until(() => !p!.session.current.busy && p!.server.chatRequests().length === 2, 'the second turn to end');
    const raw = [
      '{"__proto__":{"type":"send","text":"inherited"}}',
      '{"type":"approve","call_id":"__proto__"}',
      '{"type":"answer","card_id":"constructor","value":"polluted"}',
      '{"type":"execute_plan","card_id":"__proto__"}',
      '{"type":"execute_plan","card_id":"toString"}',
      '{"type":"revise_plan","card_id":"hasOwnProperty","feedback":"x"}',
      '{"type":"save_settings","base_url":"http://x","models":{"planner":"m","actor":"m"},"__proto__":{"api_key":"sk-injected"}}',
      '{"type":"set_role","role":"actor","__proto__":{"role":"planner"}}',
    ].map((s) => JSON.parse(s));
    const accepted = await p.receive(...raw);
    await until(() => !p!.session.current.busy, 'the turn to end');
    assert.deepEqual(keysSet, [], 'no key was stored from an inherited api_key');
    assert.equal(p.session.role, 'actor', 'set_role acted on its own field');
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(({} as Record<string, unknown>).isAdmin, undefined);
    assert.equal(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted'), false);
    assert.equal(accepted[0], false, 'a type only on the prototype is not a message');
    // The first send ran as a plain message with the plain text; the role change came from set_role itself, once.
    const userTexts = p.cards().filter((c) => c.kind === 'text' && c.author === 'user').map((c) => (c as { text: string }).text);
    assert.equal(userTexts[0], 'hi');
    assert.equal(p.server.chatRequests()[0].messages.at(-1).content, 'hi');
    // Forged ids for approve/answer/execute found nothing to act on.
    assert.ok(p.logs.some((l) => /approve for __proto__: nothing is waiting/.test(l)), p.logs.join('\n'));
    assert.ok(p.logs.some((l) => /answer for constructor: no such question/.test(l)), p.logs.join('\n'));
    const errors = p.cards().filter((c) => c.kind === 'error').map((c) => (c as { message: string }).message).join('\n');
    assert.match(errors, /No plan with id __proto__/);
    assert.match(errors, /No plan with id toString/);
  });

  it('wrong types, unknown types, arrays, huge and deep payloads are dropped, logged briefly, and the panel keeps working', async () => {
    p = await panel([text('still alive')], 'planner');
    let deep: unknown = 'x';
    for (let i = 0; i < 5000; i++) deep = { a: deep };
    const junk: unknown[] = [
      undefined, null, 0, NaN, true, 'send', Symbol.for('send').toString(), [], [{ type: 'send', text: 'batched' }], [[{ type: 'stop' }]],
      { type: 'SEND', text: 'x' }, { type: 'send ', text: 'x' }, { type: ['send'], text: 'x' }, { type: 'send', text: 42 }, { type: 'send', text: ['a'] },
      { type: 'send', text: '' }, { type: 'send', text: 'x'.repeat(5_000_000) }, { type: 'send', text: deep }, deep,
      { type: 'x'.repeat(1_000_000) }, { type: 'exec', command: 'rm -rf /' }, { type: 'run_command', command: 'touch pwned' }, { type: 'write_file', path: 'a', content: 'b' },
      { type: 'ready', last_seq: NaN }, { type: 'ready', last_seq: 1.5 }, { type: 'continue', allow: 'true' }, { type: 'set_role', role: 'root' }, { type: 'set_role', role: 'Actor' },
      { type: 'approve', call_id: '' }, { type: 'approve', call_id: 'c', note: 'x'.repeat(10_001) }, { type: 'approve', call_id: 'x'.repeat(201) }, { type: 'answer', card_id: 'q', value: '' }, { type: 'reject', call_id: 'c', reason: 'x'.repeat(10_001) },
      { type: 'save_settings', base_url: 'http://x', api_key: 'sk-should-not-be-logged-123456', models: { planner: 7, actor: 'm' } },
    ];
    const accepted = await p.receive(...junk);
    assert.deepEqual(accepted.map((a, i) => (a ? i : -1)).filter((i) => i >= 0), [], 'nothing was accepted');
    assert.equal(p.bridge.droppedCount, junk.length);
    assert.equal(p.cards().length, 0, 'no card, no turn');
    assert.equal(p.server.chatRequests().length, 0);
    assert.deepEqual(treeFingerprint(p.ws), {});
    for (const l of p.logs) {
      assert.ok(l.length < 400, `a log line stays short (${l.length} chars)`);
      assert.doesNotMatch(l, /sk-should-not-be-logged/);
    }
    assert.equal(p.session.role, 'planner');
    // And the panel still works.
    await p.receive({ type: 'send', text: 'are you there?' });
    await until(() => p!.server.chatRequests().length === 1 && !p!.session.current.busy, 'the turn');
    assert.ok(p.cards().some((c) => c.kind === 'text' && (c as { text: string }).text === 'still alive'));
  });

  it('approve/reject for a call that is not pending approves nothing else; the pending write stays pending', async () => {
    p = await panel([
      { type: 'tool_calls', calls: [{ id: 'call_real', name: 'write_file', arguments: { path: 'new.txt', content: 'written only when approved\n' } }] },
      text('ok'),
      { type: 'tool_calls', calls: [{ id: 'call_two', name: 'write_file', arguments: { path: 'two.txt', content: 'second\n' } }] },
      text('ok'),
    ], 'actor', { 'a.txt': 'alpha\n' });
    const before = treeFingerprint(p.ws);
    void p.session.current.send('create new.txt');
    await until(() => p!.approver.isPending('call_real'), 'the approval');
    const card = p.cards().find((c) => c.kind === 'tool_call')!;
    await p.receive(
      { type: 'approve', call_id: 'call_other' },
      { type: 'approve', call_id: card.id },
      { type: 'approve', call_id: 'CALL_REAL' },
      { type: 'approve', call_id: 'call_real ' },
      { type: 'approve', call_id: ' call_real' },
      { type: 'approve', call_id: 'call_rea' },
      { type: 'approve', call_id: 'constructor' },
      { type: 'approve', call_id: 'hasOwnProperty' },
      { type: 'reject', call_id: 'call_other' },
      { type: 'answer', card_id: card.id, value: 'yes' },
      { type: 'continue', allow: true },
      { type: 'open_diff', call_id: 'call_other' },
    );
    assert.equal(p.approver.isPending('call_real'), true, 'still waiting for the real click');
    assert.deepEqual(treeFingerprint(p.ws), before);
    assert.equal((p.cards().find((c) => c.id === card.id) as { status: string }).status, 'pending');
    assert.equal(p.server.chatRequests().length, 1, 'the turn did not move on');
    // The real reject settles it; nothing is written.
    await p.receive({ type: 'reject', call_id: 'call_real', reason: 'no' });
    await until(() => !p!.session.current.busy, 'the turn to end');
    assert.deepEqual(treeFingerprint(p.ws), before);
    // A replayed approve after the fact does nothing either, also not to the next pending call.
    void p.session.current.send('create two.txt');
    await until(() => p!.approver.isPending('call_two'), 'the second approval');
    await p.receive({ type: 'approve', call_id: 'call_real' });
    assert.equal(p.approver.isPending('call_two'), true);
    assert.deepEqual(treeFingerprint(p.ws), before);
    await p.receive({ type: 'approve', call_id: 'call_two' });
    await until(() => !p!.session.current.busy, 'the second turn');
    assert.deepEqual(Object.keys(treeFingerprint(p.ws)).sort(), ['a.txt', 'two.txt'], 'only the really approved call wrote');
  });

  it('a server that reuses call ids across messages: a stale approve for the earlier call does not approve the later one', async () => {
    // Some servers number calls per message ("call_0" every time); approvals are addressed by call id.
    p = await panel([
      { type: 'tool_calls', calls: [{ id: 'call_0', name: 'write_file', arguments: { path: 'first.txt', content: 'approved\n' } }] },
      { type: 'tool_calls', calls: [{ id: 'call_0', name: 'write_file', arguments: { path: 'second.txt', content: 'never approved\n' } }] },
      text('ok'),
    ], 'actor');
    void p.session.current.send('write two files');
    await until(() => p!.approver.isPending('call_0'), 'the first approval');
    await p.receive({ type: 'approve', call_id: 'call_0' });
    await until(() => p!.cards().filter((c) => c.kind === 'tool_call').length === 2 && p!.approver.pendingIds().length === 1, 'the second approval');
    const [first, second] = p.cards().filter((c) => c.kind === 'tool_call') as Extract<Card, { kind: 'tool_call' }>[];
    assert.notEqual(second!.call_id, first!.call_id, 'each call of the conversation has its own id');
    // The same click again (a double click, a leftover diff tab's Approve): it was for the first call.
    await p.receive({ type: 'approve', call_id: 'call_0' });
    assert.equal(fs.existsSync(path.join(p.ws, 'second.txt')), false);
    assert.deepEqual(p.approver.pendingIds(), [second!.call_id]);
    await p.receive({ type: 'reject', call_id: second!.call_id });
    await until(() => !p!.session.current.busy, 'the turn');
    assert.deepEqual(Object.keys(treeFingerprint(p.ws)), ['first.txt']);
    // The model was told about each call under the id it was given.
    const toolIds = p.server.chatRequests().at(-1).messages.filter((m: { role: string }) => m.role === 'tool').map((m: { tool_call_id: string }) => m.tool_call_id);
    assert.deepEqual(toolIds, [first!.call_id, second!.call_id]);
  });

  it('answer for a card that is not waiting, or with a value that is not an option, is ignored', async () => {
    const question = { question: 'Which file?', severity: 'major', options: [{ label: 'a', value: 'a' }, { label: 'b', value: 'b' }], default: 'a', allow_custom: false };
    p = await panel([calls(tc('ask_question', question)), text('thanks')], 'actor');
    void p.session.current.send('ask me');
    await until(() => p!.cards().some((c) => c.kind === 'question'), 'the question card');
    const q = p.cards().find((c) => c.kind === 'question')!;
    await until(() => p!.asker.isWaiting(q.id), 'the asker to wait');
    const user = p.cards().find((c) => c.kind === 'text')!;
    await p.receive(
      { type: 'answer', card_id: user.id, value: 'a' },
      { type: 'answer', card_id: q.id, value: 'rm -rf /' },
      { type: 'answer', card_id: q.id, value: 'A' },
      { type: 'answer', card_id: q.id, value: 'a ' },
      { type: 'answer', card_id: `${q.id} `, value: 'a' },
      { type: 'approve', call_id: q.id },
    );
    assert.equal(p.asker.isWaiting(q.id), true);
    assert.equal(p.server.chatRequests().length, 1);
    await p.receive({ type: 'answer', card_id: q.id, value: 'b' });
    await until(() => !p!.session.current.busy, 'the turn');
    const toolMsg = p.server.chatRequests()[1].messages.find((m: { role: string }) => m.role === 'tool');
    assert.match(toolMsg.content, /b/);
    assert.doesNotMatch(toolMsg.content, /rm -rf/);
    // Answering again after the fact changes nothing.
    await p.receive({ type: 'answer', card_id: q.id, value: 'a' });
    assert.equal(p.server.chatRequests().length, 2);
  });

  it('execute_plan for a plan that never validated (or any other card) does not start the Actor', async () => {
    const propose = (plan: unknown): ScriptStep => ({ type: 'tool_calls', calls: [{ name: 'propose_plan', arguments: plan as Record<string, unknown> }] });
    p = await panel([propose(planWithUnknownTool()), propose(planWithUnknownTool()), propose(planWithUnknownTool()), text('never')], 'planner', { 'a.txt': 'alpha\n' });
    await p.receive({ type: 'send', text: 'plan it' });
    await until(() => p!.cards().some((c) => c.kind === 'plan') && !p!.session.current.busy, 'the plan');
    const plan = p.cards().find((c) => c.kind === 'plan') as Extract<Card, { kind: 'plan' }>;
    assert.equal(plan.plan, null, 'the plan never validated');
    const requests = p.server.chatRequests().length;
    const before = treeFingerprint(p.ws);
    const user = p.cards().find((c) => c.kind === 'text')!;
    for (const card_id of [plan.id, user.id, 'plan-1', 'plan-999', '__proto__', 'constructor']) {
      await p.receive({ type: 'execute_plan', card_id });
      await until(() => !p!.session.current.busy, 'idle');
    }
    assert.equal(p.session.role, 'planner');
    assert.ok(!p.posted.some((m) => m.type === 'role_changed'), 'no role switch was ever announced');
    assert.equal(p.server.chatRequests().length, requests, 'no request was made for an Actor');
    assert.deepEqual(treeFingerprint(p.ws), before);
  });

  it('execute_plan while a turn is running does not start a second run', async () => {
    p = await panel([
      { type: 'tool_calls', calls: [{ name: 'propose_plan', arguments: goodPlan() }] },
      { type: 'text', text: 'slow '.repeat(200), chunkSize: 5, chunkDelayMs: 5 },
      text('x'),
    ], 'planner');
    await p.receive({ type: 'send', text: 'plan it' });
    await until(() => p!.cards().some((c) => c.kind === 'plan') && !p!.session.current.busy, 'the plan');
    const plan = p.cards().find((c) => c.kind === 'plan')!;
    await p.receive({ type: 'send', text: 'talk slowly' });
    await until(() => p!.session.current.busy, 'busy');
    await p.receive({ type: 'execute_plan', card_id: plan.id });
    assert.equal(p.session.role, 'planner', 'the Actor did not start under a running Planner turn');
    await until(() => !p!.session.current.busy, 'idle');
    assert.match(p.cards().filter((c) => c.kind === 'error').map((c) => (c as { message: string }).message).join('\n'), /busy/);
  });
});
