import assert from 'node:assert/strict';
import { loadWebviewModule } from './loadWebviewModule';
import { fakeDom, type FakeElement } from './fakeDom';

/** What viewStore.entry.tsx re-exports (typed from the .ts modules; the components are .tsx). */
type M = typeof import('preact') & typeof import('preact/test-utils') & typeof import('../../../webview-ui/src/state/viewStore')
  & typeof import('../../../webview-ui/src/ui/storeContext') & typeof import('../../../webview-ui/src/state/decodeInbound')
  & { VirtualCardList: import('preact').FunctionComponent<Record<string, unknown>>; Header: import('preact').FunctionComponent<Record<string, unknown>> }
  & typeof import('../../../webview-ui/src/state/chatStore');

/**
 * Tandem's housekeeping about the context window is not chat: an assumed window is said on the
 * header's Context meter (once per model), not as a paragraph at the start of every task, and a
 * condensed conversation is a quiet marker with its figures on demand.
 */
describe('webview: context notes are quiet', () => {
  let M: M;
  before(async () => {
    M = await loadWebviewModule<M>('test/unit/webview/viewStore.entry.tsx');
  });
  const text = (el: FakeElement) => el.textContent.replace(/\s+/g, ' ');
  const card = (c: Record<string, unknown>) => {
    const d = M.decodeCard({ ts: 1, ...c });
    assert.notEqual(d.kind, 'raw', `fixture card did not validate: ${JSON.stringify(d)}`);
    return d;
  };

  it('the assumed-window note is no row of the chat; the condensed note is one quiet line that opens to its figures', () => {
    const cards = [
      card({ kind: 'text', id: 'u1', author: 'user', text: 'Fix the cart' }),
      card({ kind: 'text', id: 'n1', author: 'system', note: 'context_window', text: 'The context window of llama is not known (the endpoint reports none at /models or /props), so Tandem assumes 8,192 tokens.' }),
      card({ kind: 'text', id: 'a1', author: 'assistant', text: 'Looking.' }),
      card({ kind: 'text', id: 'n2', author: 'system', note: 'condensed', text: 'Context condensed: the 3 earliest turns (9 messages) were summarised by llama to fit llama\'s 8,192-token window.' }),
    ];
    const { root } = fakeDom();
    const index = new Map(cards.map((c, i) => [c.id, i]));
    M.act(() => { M.render(M.h(M.ViewStoreContext.Provider, { value: M.createViewStore() }, M.h(M.VirtualCardList, { cards, version: 1, onScrollMemory: () => undefined, indexOf: (id: string) => index.get(id) ?? -1 })), root as never); });
    assert.doesNotMatch(text(root), /is not known/, 'no paragraph about the window');
    const marker = root.findAll((e) => e.getAttribute('data-context-marker') !== null);
    assert.equal(marker.length, 1, text(root));
    assert.equal(marker[0]!.localName, 'details', 'the figures are on demand');
    const summary = marker[0]!.findAll((e) => e.localName === 'summary')[0]!;
    assert.equal(text(summary), 'Context condensed here');
    assert.match(text(marker[0]!), /summarised by llama/, 'the figures are kept, inside');
  });

  it('the header\'s Context meter says the window is assumed and why, on hover', () => {
    const store = M.createViewStore();
    const { root } = fakeDom();
    M.act(() => { M.render(M.h(M.ViewStoreContext.Provider, { value: store }, M.h(M.Header, {})), root as never); });
    M.act(() => store.update({ meter: { model: 'llama', used: 1000, window: 8192, known: false } }));
    const meter = root.findAll((e) => e.getAttribute('role') === 'meter')[0]!;
    assert.match(text(meter), /~8\.2k/);
    assert.match(meter.getAttribute('title') ?? '', /no window for llama: Tandem assumes 8,192 tokens/);
  });
});
