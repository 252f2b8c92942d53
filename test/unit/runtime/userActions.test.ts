/**
 * User actions are rows of one table (core/task/userActions.ts): every webview message of the
 * protocol has its row, the runtime's dispatch is made from the table, and the one gate refuses
 * every action that needs the task idle with the same words while a turn runs, and an action whose
 * role the registry lacks with that role's words. The agent has one way in for them all (`act`).
 */
import assert from 'node:assert/strict';
import { BUSY, ROLE_NEEDS, TASK_ACTIONS, USER_ACTIONS, taskRow, type TaskActionMessage, type TaskActionType } from '../../../src/core/task/userActions';
import { TaskRuntime } from '../../../src/core/runtime/taskRuntime';
import { Agent } from '../../../src/core/task/taskAgent';
import { HeadlessAsker } from '../../../src/host/node/headlessAsker';
import { defaultSettings } from '../../../src/core/settings/settings';
import { createNodeHost } from '../../../src/host/node/nodeHost';
import { RoleRegistry, WebviewMessage, type HostEvent } from '../../../src/protocol';
import { PRODUCT_ROLES } from '../../../src/core/roles/roles';
import { harness, type Harness } from '../../support/agentHarness';
import { ScriptedServer } from '../../support/scriptedServer';

/** A message of each task action, as the chat would send it. */
const SAMPLES: { [K in TaskActionType]: Extract<TaskActionMessage, { type: K }> } = {
  send: { type: 'send', text: 'again' },
  execute_plan: { type: 'execute_plan', card_id: 'plan-1' },
  review_plan: { type: 'review_plan', card_id: 'plan-1' },
  replan: { type: 'replan', card_id: 'plan-1' },
  revise_plan: { type: 'revise_plan', card_id: 'plan-1', feedback: 'smaller steps' },
  edit_plan: { type: 'edit_plan', card_id: 'plan-1', steps: [{ step_number: 1, action: 'edited', files: [], commands: [], check: null }] },
  retry: { type: 'retry' },
  edit_message: { type: 'edit_message', card_id: 'user-1', text: 'edited', files: 'keep' },
  set_role: { type: 'set_role', role: 'planner' },
  stop: { type: 'stop' },
  continue: { type: 'continue', allow: true },
  revert_call: { type: 'revert_call', call_id: 'call_1' },
  revert_task: { type: 'revert_task' },
  revert_file: { type: 'revert_file', path: 'a.txt' },
};

const protocolTypes = (): string[] => WebviewMessage.options.map((o) => o.shape.type.value as string);

describe('user actions are rows of one table', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    h?.agent.stop();
    await h?.close();
    h = undefined;
  });

  it('has a row for every webview message of the protocol, and none for a message the protocol lacks', () => {
    const rows = Object.keys(USER_ACTIONS).sort();
    const missing = protocolTypes().filter((t) => !rows.includes(t));
    assert.deepEqual(missing, [], `protocol messages with no row in the user-action table: ${missing.join(', ')}`);
    assert.deepEqual(rows, [...protocolTypes()].sort());
  });

  it('the agent has one way into each guarded row: act, and no method of its own that repeats one (send only adds what the CLI asks)', () => {
    const camel = (type: string) => type.replace(/_(\w)/g, (_, c: string) => c.toUpperCase());
    const methods = new Set(Object.getOwnPropertyNames(Agent.prototype));
    assert.ok(methods.has('act'));
    const guarded = TASK_ACTIONS.filter((t) => t !== 'send' && (taskRow(t).idle || taskRow(t).needs));
    assert.deepEqual(guarded.filter((t) => methods.has(camel(t))), [], 'methods that repeat a row past its gate');
  });

  it('the runtime dispatches exactly the task and runtime rows; the rest are the host\'s', async () => {
    const server = await ScriptedServer.start([]);
    try {
      const runtime = new TaskRuntime(
        { host: createNodeHost({ roots: [process.cwd()], asker: new HeadlessAsker('none') }), settings: () => defaultSettings({ baseURL: server.url, apiKey: 'k', models: { planner: 'm', actor: 'm' } }) },
        { onEvent: () => {} },
      );
      const byRuntime = Object.entries(USER_ACTIONS).filter(([, r]) => r.by !== 'host').map(([k]) => k).sort();
      assert.deepEqual(Object.keys(runtime.handlers).sort(), byRuntime);
      await runtime.close();
    } finally {
      await server.close();
    }
  });

  it('while a turn runs, every action that needs the task idle is refused with the same words, and the turn goes on', async () => {
    const t = (h = await harness({ steps: [{ type: 'fault', fault: 'hang' }] }));
    const running = t.agent.send('explain a.txt');
    while (t.server.chatRequests().length === 0) await new Promise((r) => setImmediate(r));
    const guarded = TASK_ACTIONS.filter((t) => taskRow(t).idle);
    assert.ok(guarded.length >= 7, `the busy-guarded actions: ${guarded.join(', ')}`);
    for (const type of guarded) {
      const before = t.cardsOf('error').length;
      assert.equal(await t.agent.act(SAMPLES[type]), 'error', type);
      const errors = t.cardsOf('error');
      assert.equal(errors.length, before + 1, `${type} is refused with one error card`);
      assert.equal(errors.at(-1)!.message, BUSY, `${type} is refused with the one busy message`);
    }
    // The API methods are the same actions through the same gate.
    assert.equal(await t.agent.act({ type: 'execute_plan', card_id: 'plan-1' }), 'error');
    assert.equal(await t.agent.act({ type: 'revise_plan', card_id: 'plan-1', feedback: 'x' }), 'error');
    assert.equal(t.cardsOf('error').at(-1)!.message, BUSY);
    assert.equal(t.agent.busy, true, 'the turn in flight was not touched');
    t.agent.stop();
    assert.equal(await running, 'stopped');
  });

  it('an action that is not guarded goes through while a turn runs (Stop stops it)', async () => {
    h = await harness({ steps: [{ type: 'fault', fault: 'hang' }] });
    const running = h.agent.send('explain a.txt');
    while (h.server.chatRequests().length === 0) await new Promise((r) => setImmediate(r));
    assert.equal(taskRow('stop').idle, false);
    void h.agent.act({ type: 'stop' });
    assert.equal(await running, 'stopped');
    assert.equal(h.cardsOf('error').filter((c) => c.message === BUSY).length, 0);
  });

  it('an action whose role the registry lacks is refused with that role\'s words', async () => {
    const noPlanner = new RoleRegistry(PRODUCT_ROLES.list.filter((r) => !r.mayPlan));
    h = await harness({ steps: [], roles: noPlanner });
    assert.equal(taskRow('revise_plan').needs, 'planner');
    assert.equal(await h.agent.act({ type: 'revise_plan', card_id: 'plan-1', feedback: 'x' }), 'error');
    assert.equal(h.cardsOf('error').at(-1)!.message, ROLE_NEEDS.planner);
    assert.equal(await h.agent.act({ type: 'replan', card_id: 'plan-1' }), 'error');
    assert.equal(h.cardsOf('error').at(-1)!.message, ROLE_NEEDS.planner);
  });

  it('a send that meets a busy task through the runtime goes back to the chat\'s queue, not into an error', async () => {
    const server = await ScriptedServer.start([{ type: 'fault', fault: 'hang' }]);
    const queued: string[] = [];
    const events: HostEvent[] = [];
    const runtime = new TaskRuntime(
      { host: createNodeHost({ roots: [process.cwd()], asker: new HeadlessAsker('none') }), settings: () => defaultSettings({ baseURL: server.url, apiKey: 'k', models: { planner: 'm', actor: 'm' } }) },
      { onEvent: (e) => events.push(e), onQueued: (m) => { if (m.type === 'send') queued.push(m.text); } },
    );
    try {
      const first = runtime.handlers.send({ type: 'send', text: 'one' });
      while (server.chatRequests().length === 0) await new Promise((r) => setImmediate(r));
      await runtime.handlers.send({ type: 'send', text: 'two' });
      assert.deepEqual(queued, ['two']);
      assert.equal(runtime.agent.cards().filter((c) => c.kind === 'error').length, 0);
      runtime.handlers.stop({ type: 'stop' });
      await first;
    } finally {
      await runtime.close();
      await server.close();
    }
  });
});
