import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadWebviewModule, repoRoot } from './loadWebviewModule';
import { fakeDom, type FakeElement } from './fakeDom';

/** What viewSession.entry.tsx re-exports (typed from the .ts modules; the panel is .tsx). */
type M = typeof import('preact') & typeof import('preact/test-utils') & typeof import('../../../webview-ui/src/state/viewStore')
  & typeof import('../../../webview-ui/src/state/viewSession')
  & { Panel: import('preact').FunctionComponent<{ session: unknown }> };

/**
 * The webview re-renders one way: what the host sends is applied to the view store in one place
 * (the session's `receive`, plain logic with no DOM), and every part of the panel — the setup card,
 * the recent tasks, the notices, the composer and its queue — shows what it selects from the store.
 */
describe('webview: the host\'s messages end in the view store, and the panel shows the store', () => {
  let M: M;
  before(async () => {
    M = await loadWebviewModule<M>('test/unit/webview/viewSession.entry.tsx');
  });

  /** A session over a host that records what the webview sends and saves. */
  function session(persisted: Record<string, unknown> = {}) {
    const posts: Record<string, unknown>[] = [];
    const saved: Record<string, unknown>[] = [];
    const s = new M.ViewSession(persisted, { post: (m) => posts.push(m as never), save: (p) => saved.push(p as never), now: () => 0 });
    return { s, posts, saved, state: () => s.store.get() };
  }
  const snapshot = (seq: number, taskId: string, over: Record<string, unknown> = {}) => ({ type: 'snapshot', seq, task_id: taskId, role: 'actor', cards: [], ...over });
  const text = (el: FakeElement) => el.textContent.replace(/\s+/g, ' ');

  it('setup, connection, recent tasks, a task not opened, read-only and the queue become the store\'s state', () => {
    const { s, posts, saved, state } = session();
    s.start();
    assert.deepEqual(posts, [{ type: 'ready' }], 'the webview says it is here');
    s.receive([snapshot(1, 't1'), { type: 'setup_needed', base_url: 'http://localhost:8080/v1', models: { actor: 'qwen' } }]);
    assert.deepEqual(state().setup, { url: 'http://localhost:8080/v1', models: { actor: 'qwen' }, keyNeeded: undefined });
    assert.deepEqual(state().unconnected, { url: 'http://localhost:8080/v1', models: { actor: 'qwen' } }, 'no model connected: Send must wait');
    s.receive([{ type: 'connection_result', ok: true, models: ['qwen', 'llama'] }]);
    s.receive([{ type: 'connection_result', ok: false, error: 'refused' }]);
    assert.deepEqual(state().connection, { ok: false, models: undefined, suggested: undefined, error: 'refused', tick: 2 }, 'each answer is a new tick');
    s.receive([{ type: 'setup_done' }]);
    assert.equal(state().setup, null);
    assert.equal(state().unconnected, null);

    s.receive([{ type: 'recent_tasks', tasks: [{ id: 't0', title: 'Fix the cart', updated: 1, detail: '2 hours ago' }] }]);
    assert.deepEqual(state().recentTasks.map((t) => t.title), ['Fix the cart']);

    s.receive([{ type: 'task_unavailable', task_id: 't0', reason: 'Open in another window', take_over: true }]);
    assert.deepEqual(state().unavailable, { taskId: 't0', reason: 'Open in another window', takeOver: true, tick: 1 });
    s.receive([snapshot(1, 't2')]);
    assert.equal(state().unavailable, null, 'another task opened: the notice is moot');

    s.receive([{ type: 'read_only', reason: 'Another window took this task over.' }]);
    assert.equal(state().readOnly, 'Another window took this task over.');
    s.receive([{ type: 'read_only' }]);
    assert.equal(state().readOnly, null);

    s.receive([{ type: 'prefill', text: 'Explain this' }, { type: 'insert_mention', text: '@src/cart.ts' }]);
    assert.equal(state().draft, 'Explain this @src/cart.ts ');
    assert.equal(state().focusTick, 2, 'both put the cursor in the composer');

    // The host was still busy: the message waits at the front of the queue, and goes out when a turn ends well.
    s.receive([{ type: 'agent_state', seq: 2, state: 'thinking' }, { type: 'send_deferred', text: 'and add a test' }]);
    assert.deepEqual(state().queue.map((m) => m.text), ['and add a test']);
    assert.deepEqual(saved.filter((p) => 'queue' in p).at(-1), { queue: [{ text: 'and add a test' }] }, 'the queue survives the panel being hidden');
    assert.ok(state().chat.busy);
    const before = posts.length;
    s.receive([{ type: 'turn_ended', seq: 3, outcome: 'done' }, { type: 'agent_state', seq: 4, state: 'idle' }]);
    assert.deepEqual(posts.slice(before), [{ type: 'send', text: 'and add a test' }]);
    assert.deepEqual(state().queue, []);
  });

  it('a queued message waits after a stopped turn, and the user sends, edits or removes it through the session', () => {
    const { s, posts, state } = session({ draft: 'half typed', queue: [{ text: 'first' }, { text: 'second' }] });
    s.receive([snapshot(1, 't1', { state: 'thinking' })]);
    s.start();
    s.receive([{ type: 'turn_ended', seq: 2, outcome: 'stopped' }, { type: 'agent_state', seq: 3, state: 'idle' }]);
    assert.ok(!posts.some((p) => p.type === 'send'), 'nothing goes out by itself after Stop');
    const [first, second] = state().queue;
    s.editQueued(first!.id);
    assert.equal(state().draft, 'half typed\nfirst', 'what was being typed is kept');
    s.sendQueuedNow(second!.id);
    assert.deepEqual(posts.at(-1), { type: 'send', text: 'second' });
    assert.deepEqual(state().queue, []);
  });

  it('the panel renders what the store holds: setup card, recent tasks, the notice, the read-only task, the queue', () => {
    const { root } = fakeDom();
    const g = globalThis as { window?: unknown };
    const hadWindow = 'window' in g;
    g.window ??= { innerHeight: 800 };
    try {
      const { s, state } = session();
      M.act(() => { M.render(M.h(M.Panel, { session: s }), root as never); });
      const find = (label: string) => root.findAll((e) => e.getAttribute('aria-label') === label)[0];
      const recv = (batch: unknown[]) => M.act(() => s.receive(batch));

      recv([snapshot(1, 't1'), { type: 'setup_needed', base_url: 'http://localhost:8080/v1' },
        { type: 'recent_tasks', tasks: [{ id: 't0', title: 'Fix the cart', updated: 1, detail: '2 hours ago' }] }]);
      assert.ok(find('Set up Tandem'), 'the setup card shows');
      assert.match(text(root), /No model is connected yet/);
      assert.match(text(find('Recent tasks')!), /Fix the cart.*2 hours ago/);
      // Closing the card keeps the composer waiting for a model (the link opens the card again).
      const close = find('Close setup')!;
      M.act(() => close.dispatch('click'));
      assert.equal(find('Set up Tandem'), undefined);
      assert.equal(state().setup, null);
      assert.match(text(root), /Connect a model above|No model is connected yet/);

      recv([{ type: 'setup_done' }, { type: 'task_unavailable', task_id: 't0', reason: 'Open in another window', take_over: true }]);
      const notice = () => find('Task not opened');
      assert.match(text(notice()!), /Open in another window.*Take over/);
      const dismiss = notice()!.findAll((e) => e.localName === 'button' && text(e) === 'Dismiss')[0]!;
      M.act(() => dismiss.dispatch('click'));
      assert.equal(notice(), undefined);

      recv([{ type: 'agent_state', seq: 2, state: 'thinking' }, { type: 'send_deferred', text: 'and add a test' }]);
      assert.match(text(find('Queued messages')!), /queued ?and add a test/);
      assert.ok(root.findAll((e) => e.getAttribute('aria-label') === 'Stop').length > 0, 'a running turn offers Stop');

      recv([{ type: 'read_only', reason: 'Another window took this task over.' }]);
      assert.match(text(find('Read-only task')!), /Another window took this task over.*Take it back/);
      assert.equal(find('Message Tandem'), undefined, 'no composer on a read-only task');
    } finally {
      if (!hadWindow) delete g.window;
    }
  });

  it('App.tsx keeps no state of its own besides the session, and no component re-renders by a version counter', () => {
    const app = readFileSync(join(repoRoot, 'webview-ui/src/ui/App.tsx'), 'utf8');
    assert.equal(app.match(/\buse(State|Reducer)\(/g)?.length ?? 0, 1, 'one useState: the session (with its store), made once per mount');
    assert.doesNotMatch(app, /\buseMemo\(/);
    const dir = join(repoRoot, 'webview-ui/src/ui');
    const files = readdirSync(dir, { recursive: true }).map(String).filter((f) => /\.tsx?$/.test(f));
    const counters = files.filter((f) => /\[version[\],]/.test(readFileSync(join(dir, f), 'utf8')));
    assert.deepEqual(counters, [], 'components select from the store; none memoises on a re-render counter');
  });
});
