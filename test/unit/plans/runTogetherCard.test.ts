/**
 * The plan card says which steps can run side by side (groups of steps that all pair), and, outside
 * git, why they will run one at a time — as soon as the plan shows, before Execute.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createNodeHost } from '../../../src/host/node/nodeHost';
import { commitFiles } from '../../support/gitRepo';
import { defaultSettings } from '../../../src/core/settings/settings';
import { resumeTask, startTask, type RunningTask } from '../../../src/core/runtime/runningTask';
import { HistoryStore } from '../../../src/core/history/historyStore';
import { HeadlessAsker } from '../../../src/host/node/headlessAsker';
import { sideBySideGroups } from '../../../src/core/plans/graph/sideBySideGroups';
import { ScriptedServer } from '../../support/scriptedServer';
import { waitUntil } from '../../support/wait';
import type { PlanCard } from '../../../src/protocol';
import type { AgentSettings } from '../../../src/core/settings/settings';

describe('which steps can run side by side, on the plan card', function () {
  this.timeout(30_000);

  it('pairs become groups only where every two steps of a group pair', () => {
    assert.deepEqual(sideBySideGroups([[1, 2], [1, 3], [2, 3]]), [[1, 2, 3]]);
    // 3 and 4 overlap: 2 runs beside either, never the three at once.
    assert.deepEqual(sideBySideGroups([[2, 3], [2, 4]]), [[2, 3], [2, 4]]);
    assert.deepEqual(sideBySideGroups([[1, 2], [3, 4]]), [[1, 2], [3, 4]]);
    assert.deepEqual(sideBySideGroups([]), []);
  });

  const plan = {
    format_version: '1.0',
    goal: 'Write three notes',
    steps: [
      { step_number: 1, action: 'Write a.txt', reason: 'notes', tools_needed: ['write_file'], estimated_time: '1m', files: ['a.txt'], depends_on: [] },
      { step_number: 2, action: 'Write b.txt', reason: 'notes', tools_needed: ['write_file'], estimated_time: '1m', files: ['b.txt'], depends_on: [] },
      { step_number: 3, action: 'Write c.txt', reason: 'notes', tools_needed: ['write_file'], estimated_time: '1m', files: ['c.txt'], depends_on: [] },
      { step_number: 4, action: 'Sum up', reason: 'notes', tools_needed: ['write_file'], estimated_time: '1m', files: ['sum.txt'], depends_on: [1, 2, 3] },
    ],
    estimated_total_time: '4m',
    risks: [],
    prerequisites: [],
  };

  let tmp: string;
  const open: { session: RunningTask; server: ScriptedServer }[] = [];
  beforeEach(() => { tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-runtogether-'))); });
  afterEach(async () => {
    for (const o of open.splice(0)) {
      await o.session.close();
      await o.server.close();
    }
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  /** The plan card a Planner turn shows in `ws` (as it is when called), once `settled` holds for it (nothing is executed). */
  async function planCardIn(ws: string, settled: (c: PlanCard) => boolean): Promise<() => PlanCard> {
    const server = await ScriptedServer.start([{ type: 'tool_calls', calls: [{ name: 'propose_plan', arguments: plan }] }]);
    const settings = defaultSettings({ baseURL: server.url, apiKey: 'sk-test', models: { planner: 'gpt-4o', actor: 'gpt-4o' } });
    settings.limits = { ...settings.limits, maxRetries: 0 };
    const session = startTask({ host: createNodeHost({ roots: [ws], asker: new HeadlessAsker('none') }), settings: () => settings, workspace: ws }, { role: 'planner', keepRole: true, sink: () => undefined });
    open.push({ session, server });
    await session.agent.send('notes');
    const card = () => session.agent.cards().find((c): c is PlanCard => c.kind === 'plan');
    await waitUntil(() => { const c = card(); return !!c && settled(c); }, 'the plan card', 5_000);
    return () => card()!;
  }

  it('outside git: the card names the steps and says why they will run one at a time, before Execute', async () => {
    const card = (await planCardIn(tmp, (c) => !!c.one_at_a_time))();
    assert.deepEqual(card.run_together, [[1, 2, 3]]);
    assert.match(card.one_at_a_time!, /^the workspace is not in a git repository/);
    assert.equal(card.executing ?? false, false);
  });

  it('in a git repository: the steps can run side by side, and no reason is given', async () => {
    commitFiles(tmp, { 'README.md': 'x\n' });
    const card = await planCardIn(tmp, (c) => !!c.run_together);
    assert.deepEqual(card().run_together, [[1, 2, 3]]);
    // The answer comes after the card: give it the time it would need, then look.
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(card().one_at_a_time, undefined);
  });

  /** A git repository with one commit in `ws`. */
  const gitRepo = (ws: string) => void commitFiles(ws, { 'README.md': 'x\n' });

  /**
   * The plan is made and the task saved (a window closed) in `ws` as it is; `meanwhile` changes the
   * folder; the task is resumed (a window opened again) with `parallelSteps`. Returns the resumed
   * plan card as it is when called.
   */
  async function resumedPlanCard(ws: string, o: { meanwhile?: () => void; parallelSteps?: number; shown: (c: PlanCard) => boolean }): Promise<{ saved: PlanCard; card: () => PlanCard }> {
    const server = await ScriptedServer.start([{ type: 'tool_calls', calls: [{ name: 'propose_plan', arguments: plan }] }]);
    const store = new HistoryStore(path.join(tmp, 'history'));
    let settings: AgentSettings = defaultSettings({ baseURL: server.url, apiKey: 'sk-test', models: { planner: 'gpt-4o', actor: 'gpt-4o' } });
    settings = { ...settings, limits: { ...settings.limits, maxRetries: 0 } };
    const ports = () => ({ host: createNodeHost({ roots: [ws], asker: new HeadlessAsker('none') }), settings: () => settings, workspace: ws, history: store });
    const first = startTask(ports(), { role: 'planner', keepRole: true, sink: () => undefined });
    await first.agent.send('notes');
    const planOf = (t: RunningTask) => t.agent.cards().find((c): c is PlanCard => c.kind === 'plan');
    await waitUntil(() => { const c = planOf(first); return !!c && o.shown(c); }, 'the plan card as first shown', 5_000);
    // What the card says when the window closes (the "one at a time" answer comes after the card).
    await new Promise((r) => setTimeout(r, 300));
    const saved = planOf(first)!;
    await first.close();
    await server.close();
    o.meanwhile?.();
    if (o.parallelSteps !== undefined) settings = { ...settings, parallelSteps: o.parallelSteps };
    const again = await resumeTask(ports(), first.id, { sink: () => undefined });
    open.push({ session: again, server });
    return { saved, card: () => planOf(again)! };
  }

  it('resumed after git was set up: the card no longer says the steps run one at a time', async () => {
    const { saved, card } = await resumedPlanCard(tmp, { shown: (c) => !!c.one_at_a_time, meanwhile: () => gitRepo(tmp) });
    assert.match(saved.one_at_a_time ?? '', /not in a git repository/, 'saved outside git');
    await waitUntil(() => !card().one_at_a_time, 'the card to drop the reason that no longer holds', 5_000);
    assert.deepEqual(card().run_together, [[1, 2, 3]]);
  });

  it('resumed after the repository went away: the card says why the steps now run one at a time', async () => {
    gitRepo(tmp);
    const { saved, card } = await resumedPlanCard(tmp, { shown: (c) => !!c.run_together, meanwhile: () => fs.rmSync(path.join(tmp, '.git'), { recursive: true, force: true }) });
    assert.equal(saved.one_at_a_time, undefined, 'saved in git: no reason');
    await waitUntil(() => !!card().one_at_a_time, 'the card to say why', 5_000);
    assert.match(card().one_at_a_time!, /not in a git repository/);
  });

  it('resumed with parallel steps set to 1: the card says so, not "can run side by side"', async () => {
    gitRepo(tmp);
    const { card } = await resumedPlanCard(tmp, { shown: (c) => !!c.run_together, parallelSteps: 1 });
    await waitUntil(() => !!card().one_at_a_time, 'the card to say why', 5_000);
    assert.match(card().one_at_a_time!, /parallel steps are set to 1/);
  });
});
