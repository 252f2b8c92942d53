import assert from 'node:assert/strict';
import { loadWebviewModule } from './loadWebviewModule';
import { fakeDom, type FakeElement } from './fakeDom';

/** What viewStore.entry.tsx re-exports (typed from the .ts modules; the list component is .tsx). */
type M = typeof import('preact') & typeof import('preact/test-utils') & typeof import('../../../webview-ui/src/state/viewStore')
  & typeof import('../../../webview-ui/src/ui/storeContext') & typeof import('../../../webview-ui/src/state/decodeInbound')
  & { VirtualCardList: import('preact').FunctionComponent<Record<string, unknown>>; Header: import('preact').FunctionComponent<Record<string, unknown>> }
  & typeof import('../../../webview-ui/src/state/chatStore');

/**
 * The webview's one store: cards read what lies beyond their own card (a turn running, the Retry
 * offer, the allow-list, the draft, refusals…) through selectors, and re-render when that changes —
 * the list never has to know what a card reads (there is no per-card "extra" chain to keep in step).
 */
describe('webview: one store, read through selectors', () => {
  let M: M;
  before(async () => {
    M = await loadWebviewModule<M>('test/unit/webview/viewStore.entry.tsx');
  });

  const card = (c: Record<string, unknown>) => {
    const d = M.decodeCard({ ts: 1, ...c });
    assert.notEqual(d.kind, 'raw', `fixture card did not validate: ${JSON.stringify(d)}`);
    return d;
  };
  const text = (el: FakeElement) => el.textContent.replace(/\s+/g, ' ');
  const cardEl = (root: FakeElement, id: string) => root.findAll((e) => e.getAttribute('data-card-id') === id)[0]!;
  const buttons = (root: FakeElement, id: string) => cardEl(root, id).findAll((e) => e.localName === 'button');

  /** The real card list over `cards`, under the store; counts the list's own renders. */
  function mount(cards: ReturnType<typeof card>[], store = M.createViewStore()) {
    const { root } = fakeDom();
    const listRenders = { n: 0 };
    const index = new Map(cards.map((c, i) => [c.id, i]));
    function ListHost() {
      listRenders.n++;
      return M.h(M.VirtualCardList, { cards, version: 1, onScrollMemory: () => undefined, indexOf: (id: string) => index.get(id) ?? -1 });
    }
    M.act(() => { M.render(M.h(M.ViewStoreContext.Provider, { value: store }, M.h(ListHost, {})), root as never); });
    const patch = (p: Parameters<typeof store.update>[0]) => M.act(() => store.update(p));
    return { root, store, listRenders, patch, frame: (over: { busy?: boolean; retry?: string | null; reasons?: [string, string][] } = {}) =>
      new M.ChatFrame(2, cards, over.busy ?? false, over.retry ?? null, new Map(over.reasons ?? [])) };
  }

  it('each card re-renders when what it selects changes, and the list is not rendered again', () => {
    const error = card({ kind: 'error', id: 'e1', message: 'The endpoint said 503', retryable: true });
    const command = card({ kind: 'tool_call', id: 't1', call_id: 'c1', tool: 'run_command', summary: 'npm test', args: { command: 'npm test' }, status: 'pending',
      approval: { kind: 'command', command: 'npm test', allow: { entries: ['npm test'] } } });
    const user = card({ kind: 'text', id: 'u1', author: 'user', text: 'Fix the cart' });
    const m = mount([user, error, command]);
    assert.equal(m.listRenders.n, 1);

    // The Retry offer lives in the store: only the latest failed turn offers it.
    assert.ok(!buttons(m.root, 'e1').some((b) => text(b) === 'Retry'), 'no Retry before the store offers it');
    m.patch({ chat: m.frame({ retry: 'e1' }) });
    assert.ok(buttons(m.root, 'e1').some((b) => text(b) === 'Retry'), text(cardEl(m.root, 'e1')));

    // A turn running: Edit & resend is disabled on the user's message.
    const edit = () => buttons(m.root, 'u1').find((b) => text(b).includes('Edit'))!;
    assert.equal(edit().getAttribute('disabled'), null);
    m.patch({ chat: m.frame({ retry: 'e1', busy: true }) });
    assert.notEqual(edit().getAttribute('disabled'), null, 'Edit & resend disabled while a turn runs');

    // The draft: a pending approval sends what is typed with the decision, and says so.
    assert.ok(buttons(m.root, 't1').some((b) => text(b) === 'Approve'));
    m.patch({ draft: 'use the staging database' });
    assert.ok(buttons(m.root, 't1').some((b) => text(b) === 'Approve with message'), text(cardEl(m.root, 't1')));

    // The allow-list: a command whose every part is on it says so.
    assert.doesNotMatch(text(cardEl(m.root, 't1')), /On your allow-list/);
    m.patch({ allowList: ['npm test'] });
    assert.match(text(cardEl(m.root, 't1')), /On your allow-list/);

    assert.equal(m.listRenders.n, 1, 'the list itself never re-rendered: each card updated on its own');
  });

  it('a card reading a new field updates when it is patched, with no list or chain to edit', () => {
    // A stand-in for a card that starts reading something new: nothing but its own selector.
    let renders = 0;
    function Badge() {
      renders++;
      const v = M.useView((s) => (s as unknown as { newField?: string }).newField ?? 'none');
      return M.h('span', { class: 'badge' }, v);
    }
    // Its parent never re-renders (as a list row whose card did not change).
    class Frozen extends M.Component { override shouldComponentUpdate() { return false; } override render() { return M.h(Badge, {}); } }
    const { root } = fakeDom();
    const store = M.createViewStore();
    M.act(() => { M.render(M.h(M.ViewStoreContext.Provider, { value: store }, M.h(Frozen, {})), root as never); });
    assert.equal(text(root), 'none');
    M.act(() => store.update({ newField: 'shown' } as never));
    assert.equal(text(root), 'shown');
    assert.equal(renders, 2);
    // A change to something it does not read renders nothing.
    M.act(() => store.update({ draft: 'typing…' }));
    M.act(() => store.update({ allowList: ['git status'] }));
    assert.equal(renders, 2, 'no re-render for fields the card does not select');
  });

  it('plan step reasons and refusals are read per card from the chat frame', () => {
    const summary = card({ kind: 'summary', id: 's1', outcome: 'done', files: [{ path: 'src/cart.ts', change: 'modified', added: 1, removed: 1 }], commands: [] });
    const m = mount([summary]);
    assert.doesNotMatch(text(cardEl(m.root, 's1')), /would lose your edits/);
    const refusal = card({ kind: 'error', id: 'r1', message: 'Not reverted: it would lose your edits', retryable: false, refused: { action: 'revert_file', target: 'src/cart.ts' } });
    m.patch({ chat: new M.ChatFrame(3, [summary, refusal], false, null, new Map()) });
    assert.match(text(cardEl(m.root, 's1')), /would lose your edits/);
    assert.equal(m.listRenders.n, 1);
    const frame = new M.ChatFrame(1, [], false, null, new Map([['p1#2', 'the check failed']]));
    assert.equal(frame.stepReason('p1', 2), 'the check failed');
    assert.equal(frame.stepReason('p1', 1), undefined);
  });

  it('the header shows what the store holds, given no props: the chat\'s role and state, the context meter, the models', () => {
    const store = M.createViewStore();
    const { root } = fakeDom();
    M.act(() => { M.render(M.h(M.ViewStoreContext.Provider, { value: store }, M.h(M.Header, {})), root as never); });
    const roleButton = () => root.findAll((e) => e.getAttribute('data-role') !== null)[0]!;
    assert.equal(roleButton().getAttribute('data-role'), 'planner');
    const chat = new M.ChatStore();
    chat.apply({ type: 'snapshot', seq: 1, role: 'actor', cards: [] });
    chat.apply({ type: 'agent_state', seq: 2, state: 'thinking', detail: 'Reading the cart' });
    M.act(() => store.update({ chat: M.ChatFrame.of(chat) }));
    assert.equal(roleButton().getAttribute('data-role'), 'actor');
    assert.match(text(root), /Reading the cart/);
    chat.apply({ type: 'agent_state', seq: 3, state: 'idle' });
    M.act(() => store.update({ chat: M.ChatFrame.of(chat), meter: { model: 'm', used: 1000, window: 8000, known: true }, models: { byRole: { actor: 'qwen-coder' }, available: ['qwen-coder', 'llama'] } }));
    assert.match(text(root), /Context.*\(13%\)/);
    assert.ok(root.findAll((e) => e.localName === 'option').some((o) => text(o) === 'llama'), 'the endpoint\'s models are offered');
  });

  it('toggling a run and taking the draft as a note go through the store', () => {
    const store = M.createViewStore({ draft: '  keep it short  ' });
    M.toggleGroup(store, 'g1');
    assert.ok(store.get().openGroups.has('g1'));
    M.toggleGroup(store, 'g1');
    assert.ok(!store.get().openGroups.has('g1'));
    assert.equal(M.takeDraftAsNote(store), 'keep it short');
    assert.equal(store.get().draft, '', 'the composer empties once the note went with a decision');
    assert.equal(M.takeDraftAsNote(store), '');
  });
});
