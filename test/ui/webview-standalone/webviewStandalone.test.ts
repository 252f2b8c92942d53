/**
 * The real webview bundle in Chromium, outside VS Code: a page fakes `acquireVsCodeApi` and posts
 * host messages. Checks what a user does and sees: keyboard, buttons → messages to the host,
 * malformed input, following the stream, state across a reload. (The full story inside VS Code is
 * the code-server UI test; this one pins the webview's own behaviour quickly.)
 */
import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';

// The callbacks below run in the page. The Node tsconfig has no DOM lib (src/core must not use
// it), so the few browser globals they touch are declared here, for this module only.
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const window: any;
declare const document: any;
declare const navigator: any;
declare function requestAnimationFrame(cb: (t: number) => void): number;
declare function getComputedStyle(el: unknown): { outlineStyle: string };
type HTMLElement = any;

interface Harness {
  page: Page;
  origin: string;
  consoleErrors: string[];
  open(theme?: string): Promise<void>;
  post(data: unknown): Promise<void>;
  close(): Promise<void>;
}

const here = resolve(__dirname, __dirname.includes(join('out', 'test')) ? '../../../../test/ui/webview-standalone' : '.');
const importHere = async <T>(file: string): Promise<T> => (await import(pathToFileURL(join(here, file)).href)) as T;

const sent = (page: Page) => page.evaluate(() => (window as unknown as { __sent: Array<{ type: string }> }).__sent);
const clearSent = (page: Page) => page.evaluate(() => { (window as unknown as { __sent: unknown[] }).__sent.length = 0; });
const lastSent = async (page: Page) => (await sent(page)).at(-1);

describe('webview in Chromium (standalone page)', function () {
  this.timeout(60_000);
  let h: Harness;
  let fx: { demoCards(): Array<Record<string, unknown>>; bigTask(n: number): Array<Record<string, unknown>> };

  before(async () => {
    const { startHarness } = await importHere<{ startHarness(o?: object): Promise<Harness> }>('harness.mjs');
    fx = await importHere('fixtures.mjs');
    h = await startHarness({ width: 420, height: 800 });
  });
  after(async () => h?.close());
  beforeEach(async () => h.open('dark'));

  it('says ready on load, renders every card kind with its selectors, and a malformed message as text', async () => {
    assert.deepEqual(await lastSent(h.page), { type: 'ready' });
    await h.post({ type: 'snapshot', seq: 1, role: 'planner', cards: fx.demoCards() });
    await h.post({ totally: 'broken', '<b>': 1 });
    await h.post('not even an object');
    // Stuck to the bottom: the newest (malformed) message is on screen, as text.
    await h.page.waitForFunction(() => document.body.innerText.includes('not even an object'));
    assert.ok(await h.page.locator('[data-card-kind="raw"]', { hasText: 'broken' }).count() > 0);
    // The list is virtualised; from the top, the first cards are there, in order.
    await h.page.evaluate(() => { const l = document.querySelector('[role="log"]')!; l.scrollTop = 0; });
    await h.page.waitForSelector('[data-card-id="u1"]');
    const kinds = await h.page.$$eval('[role="log"] [data-card-kind]', (els) => els.map((e) => e.getAttribute('data-card-kind')));
    assert.deepEqual(kinds.slice(0, 5), ['text', 'agent_state', 'tool_call', 'text', 'plan']);
    // Model HTML never became elements.
    assert.equal(await h.page.locator('[role="log"] img').count(), 0);
    assert.equal(await h.page.locator('[role="log"] article, [role="log"] [role="article"]').count() > 0, true);
  });

  it('keeps nothing on the page for tests or benches: no global of its own after a chat has rendered', async () => {
    await h.post({ type: 'snapshot', seq: 1, role: 'planner', cards: fx.demoCards() });
    await h.page.waitForSelector('[role="log"] [data-card-kind="plan"]');
    // What the harness page itself defines (__sent, __onSent: the host side of the test) is not the webview's.
    const own = await h.page.evaluate(() => Object.keys(window).filter((k) => /tandem/i.test(k)));
    assert.deepEqual(own, []);
  });

  it('shows a card whose fields have the wrong types as plain text, and the rest of the chat still renders', async () => {
    const good = { kind: 'tool_call', call_id: 'c', tool: 'read_file', summary: 'read a.ts', args: {}, status: 'done', ts: 2 };
    await h.post({ type: 'snapshot', seq: 1, role: 'actor', cards: [
      { kind: 'text', id: 'before', author: 'user', text: 'First words', ts: 1 },
      { ...good, id: 'num-display', display: 42 },
      { ...good, id: 'num-status', status: 7, approval: 'yes' },
      { kind: 'plan', id: 'bad-plan', version: 1, plan: { goal: 'g', steps: 'none' }, errors: [], step_states: {}, ts: 3 },
      { kind: 'text', id: 'after', author: 'assistant', text: 'Still here', ts: 4 },
    ] });
    // A card added later with a wrong field is plain text too, and so is a bad UI message.
    await h.post({ type: 'card_added', seq: 2, card: { ...good, id: 'late', display: { kind: 'read', title: 5, verb: [] } } });
    await h.post({ type: 'recent_tasks', tasks: 5 });
    await h.post({ type: 'card_added', seq: 3, card: { kind: 'text', id: 'last', author: 'assistant', text: 'Last words', ts: 5 } });
    await h.page.waitForFunction(() => document.body.innerText.includes('Last words'));
    // The list is virtualised (raw cards are tall): scroll down from the top until the card is there.
    const cardOnScreen = async (id: string) => {
      for (let top = 0; top < 20_000; top += 300) {
        await h.page.evaluate((t) => { document.querySelector('[role="log"]')!.scrollTop = t; }, top);
        await h.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        if (await h.page.locator(`[data-card-id="${id}"]`).count()) return h.page.locator(`[data-card-id="${id}"]`).first();
      }
      throw new Error(`card ${id} never rendered`);
    };
    for (const id of ['num-display', 'num-status', 'bad-plan', 'late']) {
      const card = await cardOnScreen(id);
      assert.equal(await card.getAttribute('data-card-kind'), 'raw', `${id} is shown as plain text`);
      assert.match(await card.innerText(), new RegExp(id), `${id}'s payload is shown`);
    }
    assert.match(await (await cardOnScreen('num-display')).innerText(), /display/, 'says which field is wrong');
    for (const [id, words] of [['before', 'First words'], ['after', 'Still here'], ['last', 'Last words']] as const) {
      const card = await cardOnScreen(id);
      assert.equal(await card.getAttribute('data-card-kind'), 'text');
      assert.match(await card.innerText(), new RegExp(words));
    }
    assert.ok(await h.page.getByRole('textbox', { name: 'Message Tandem' }).isVisible(), 'the composer is still there');
    assert.deepEqual(h.consoleErrors.filter((e) => e.startsWith('pageerror')), []);
  });

  it('sends on Enter, keeps Shift+Enter as a newline, and stops on Escape', async () => {
    const input = h.page.getByRole('textbox', { name: 'Message Tandem' });
    await input.click();
    await input.pressSequentially('first line');
    await h.page.keyboard.press('Shift+Enter');
    await input.pressSequentially('second line');
    assert.equal(await input.inputValue(), 'first line\nsecond line');
    await clearSent(h.page);
    await h.page.keyboard.press('Enter');
    assert.deepEqual(await sent(h.page), [{ type: 'send', text: 'first line\nsecond line' }]);
    assert.equal(await input.inputValue(), '');
    await h.page.keyboard.press('Escape');
    assert.deepEqual(await lastSent(h.page), { type: 'stop' });
    // Stop is shown only while something runs, in Send's place.
    await h.post({ type: 'snapshot', seq: 1, role: 'planner', cards: [] });
    assert.equal(await h.page.getByRole('button', { name: 'Stop' }).count(), 0, 'no Stop while idle');
    await h.post({ type: 'agent_state', seq: 2, state: 'thinking' });
    await h.page.getByRole('button', { name: 'Stop' }).click();
    assert.deepEqual(await lastSent(h.page), { type: 'stop' });
    assert.equal(await h.page.getByRole('button', { name: 'Send', exact: true }).count(), 0, 'Send and Stop swap places');
    await h.post({ type: 'turn_ended', seq: 3, outcome: 'stopped' });
    await h.page.getByRole('button', { name: 'Send', exact: true }).waitFor({ state: 'visible' });
  });

  it('turns clicks on cards into the right host messages', async () => {
    // p1 as a fresh plan (the demo shows it mid-execution, when Execute is disabled).
    const fresh = (c: Record<string, unknown>) => (c.id === 'p1' ? { ...c, step_states: {}, executing: false } : c);
    await h.post({ type: 'snapshot', seq: 1, role: 'planner', cards: fx.demoCards().filter((c) => ['p1', 'q1', 't2', 'e1'].includes(String(c.id))).map(fresh) });
    await h.page.waitForSelector('[data-card-id="e1"]');
    await clearSent(h.page);
    await h.page.locator('[data-card-id="p1"]').getByRole('button', { name: 'Execute plan' }).click();
    await h.page.locator('[data-card-id="q1"]').getByRole('button', { name: 'No', exact: true }).click();
    await h.page.locator('[data-card-id="t2"]').getByRole('button', { name: 'Open diff' }).click();
    await h.page.locator('[data-card-id="t2"]').getByRole('button', { name: 'Approve' }).click();
    await h.page.locator('[data-card-id="t2"]').getByRole('button', { name: 'Reject' }).click();
    await h.page.locator('[data-card-id="e1"]').getByRole('button', { name: 'Retry' }).click();
    await h.page.getByRole('button', { name: 'Role' }).click();
    await h.page.locator('[data-card-id="p1"]').getByRole('button', { name: 'Revise' }).click();
    await h.page.getByRole('textbox', { name: 'What should change in the plan' }).fill('Skip step 3');
    await h.page.getByRole('button', { name: 'Send revision' }).click();
    assert.deepEqual(await sent(h.page), [
      { type: 'execute_plan', card_id: 'p1' },
      { type: 'answer', card_id: 'q1', value: 'no' },
      { type: 'open_diff', call_id: 'c2' },
      { type: 'approve', call_id: 'c2' },
      { type: 'reject', call_id: 'c2' },
      { type: 'retry' },
      { type: 'set_role', role: 'actor' },
      { type: 'revise_plan', card_id: 'p1', feedback: 'Skip step 3' },
    ]);
    // The role shown is the host's: it changes when role_changed arrives.
    assert.match(await h.page.getByRole('button', { name: 'Role' }).innerText(), /Planner/);
    await h.post({ type: 'role_changed', seq: 2, role: 'actor' });
    await h.page.waitForFunction(() => document.querySelector('[aria-label="Role"]')?.textContent?.includes('Actor'));
  });

  it('disables Execute for a plan that could not be validated and shows its raw text and errors', async () => {
    await h.post({ type: 'snapshot', seq: 1, role: 'planner', cards: [{ kind: 'plan', id: 'bad', version: 1, plan: null, raw_text: 'RAW PLAN TEXT', errors: ['steps: required'], step_states: {}, ts: 1 }] });
    const card = h.page.locator('[data-card-id="bad"]');
    await card.waitFor();
    assert.equal(await card.getByRole('button', { name: 'Execute plan' }).isDisabled(), true);
    const text = await card.innerText();
    assert.match(text, /could not be validated/);
    assert.match(text, /RAW PLAN TEXT/);
    assert.match(text, /steps: required/);
  });

  it('a plan keeps Execute disabled while executing, then shows it executed with a confirmed Run again (no one-click re-run)', async () => {
    const steps = [1, 2].map((n) => ({ step_number: n, action: `step ${n}`, reason: '', tools_needed: [], estimated_time: '', files: [] }));
    const plan = { format_version: '1.0', goal: 'G', steps, estimated_total_time: '', risks: [], prerequisites: [] };
    await h.post({ type: 'snapshot', seq: 1, role: 'actor', cards: [{ kind: 'plan', id: 'px', version: 1, plan, errors: [], step_states: { 1: 'running', 2: 'pending' }, executing: true, ts: 1 }] });
    const card = h.page.locator('[data-card-id="px"]');
    await card.waitFor();
    assert.equal(await card.getByRole('button', { name: 'Execute plan' }).isDisabled(), true, 'disabled while executing');
    await h.post({ type: 'card_patched', seq: 2, id: 'px', patch: { step_states: { 1: 'done', 2: 'done' }, executing: false } });
    await card.locator('[data-plan-status="executed"]', { hasText: 'Executed ✓' }).waitFor();
    assert.equal(await card.getByRole('button', { name: 'Execute plan' }).count(), 0, 'no one-click Execute on a finished plan');
    await clearSent(h.page);
    await card.getByRole('button', { name: 'Run again…' }).click();
    await card.getByRole('button', { name: 'Cancel' }).click();
    assert.deepEqual(await sent(h.page), [], 'Run again… alone sends nothing');
    await card.getByRole('button', { name: 'Run again…' }).click();
    await card.getByRole('button', { name: 'Run again', exact: true }).click();
    assert.deepEqual(await sent(h.page), [{ type: 'execute_plan', card_id: 'px' }]);
    await h.post({ type: 'card_patched', seq: 3, id: 'px', patch: { step_states: { 1: 'done', 2: 'failed' } } });
    await card.locator('[data-plan-status="executed"]', { hasText: 'failed (1 of 2 steps done)' }).waitFor();
  });

  it('Execute plan waits while another turn runs (it would only be refused as busy)', async () => {
    await h.post({ type: 'snapshot', seq: 1, role: 'planner', cards: fx.demoCards().filter((c) => c.id === 'p1').map((c) => ({ ...c, step_states: {}, executing: false })) });
    const exec = h.page.locator('[data-card-id="p1"]').getByRole('button', { name: 'Execute plan' });
    await exec.waitFor();
    assert.equal(await exec.isDisabled(), false);
    await h.post({ type: 'agent_state', seq: 2, state: 'thinking' });
    await h.page.waitForFunction(() => (document.querySelector('[data-card-id="p1"] button.primary') as any)?.disabled === true);
    await h.post({ type: 'turn_ended', seq: 3, outcome: 'done' });
    await h.page.waitForFunction(() => (document.querySelector('[data-card-id="p1"] button.primary') as any)?.disabled === false);
  });

  it('Escape stops from anywhere in the chat, but in the Revise box only closes the box', async () => {
    await h.post({ type: 'snapshot', seq: 1, role: 'planner', cards: fx.demoCards().filter((c) => c.id === 'p1').map((c) => ({ ...c, step_states: {}, executing: false })) });
    const card = h.page.locator('[data-card-id="p1"]');
    await card.waitFor();
    await clearSent(h.page);
    await card.getByRole('button', { name: 'Revise' }).click();
    const box = h.page.getByRole('textbox', { name: 'What should change in the plan' });
    await box.fill('half a thought');
    await box.press('Escape');
    await box.waitFor({ state: 'detached' });
    assert.deepEqual(await sent(h.page), [], 'Escape in the Revise box stops nothing');
    // Focus on a card's button (not the composer): Escape stops the run.
    await card.getByRole('button', { name: 'Execute plan' }).focus();
    await h.page.keyboard.press('Escape');
    assert.deepEqual(await sent(h.page), [{ type: 'stop' }]);
  });

  it('shows control characters in a command, cwd and path on the approval card instead of obeying them', async () => {
    // Before the fix the card showed the command as given: the carriage return broke the line, so
    // the card read as a harmless second line while bash runs `rm -f x` (the rest is a comment).
    const approval = { kind: 'command', command: 'rm -f x #\r\u001b[2KAllow run: echo \u202Eolleh', cwd: '/home/dev\nshop' };
    const cards = [
      { kind: 'tool_call', id: 'cmd', call_id: 'c-cmd', tool: 'run_command', summary: 'rm -f x #\rls', args: {}, status: 'pending', approval, ts: 1 },
      { kind: 'tool_call', id: 'ed', call_id: 'c-ed', tool: 'edit_file', summary: 'edit', args: {}, status: 'pending', approval: { kind: 'edit', path: 'src/\u2066evil\u2069.ts', added: 1, removed: 0 }, ts: 2 },
    ];
    await h.post({ type: 'snapshot', seq: 1, role: 'actor', cards });
    const cmd = h.page.locator('[data-card-id="cmd"]');
    await cmd.waitFor();
    const command = await cmd.locator('pre.command').textContent();
    assert.equal(command, 'rm -f x #\\x0d\\x1b[2KAllow run: echo \\u202eolleh');
    assert.equal(await cmd.locator('.muted code').first().textContent(), '/home/dev\\nshop');
    // The card's headline says what runs, in words, with the command escaped the same way.
    assert.equal(await cmd.locator('.tool-summary').textContent(), 'Run rm -f x #\\x0d\\x1b[2KAllow run: echo \\u202eolleh');
    assert.equal(await cmd.locator('.tool-summary').getAttribute('title'), 'rm -f x #\\x0dls');
    assert.equal(await h.page.locator('[data-card-id="ed"] code.file').textContent(), 'src/\\u2066evil\\u2069.ts');
    assert.ok(!/[\r\u001b\u202a-\u202e\u2066-\u2069]/.test(await cmd.innerText()), 'no raw control character reaches the page');
  });

  it('words a tool card from the display it carries: an MCP call says what it was called with, its server beside it; a new tool reads and groups with no webview change', async () => {
    const mcp = { kind: 'mcp', title: 'Echo Tool', verb: 'Call', done: 'Called', detail: 'Echo Tool · hello from the workbench', tag: 'everything' };
    const reader = { kind: 'read', title: 'Read notes', verb: 'Read', path: 'notes.md', fold: 'run' };
    const cards = [
      { kind: 'tool_call', id: 'mcp', call_id: 'c-mcp', tool: 'everything__echo', summary: 'everything: echo {"message":"hello from the workbench"}', display: mcp, args: { message: 'hello from the workbench' }, status: 'done', result: 'Echo: hello', ts: 1 },
      { kind: 'text', id: 'between', author: 'assistant', text: 'Now the notes.', ts: 2 },
      { kind: 'tool_call', id: 'n1', call_id: 'c-n1', tool: 'brand_new_reader', summary: 'r1', display: reader, args: {}, status: 'done', ts: 3 },
      { kind: 'tool_call', id: 'n2', call_id: 'c-n2', tool: 'brand_new_reader', summary: 'r2', display: { ...reader, path: 'todo.md' }, args: {}, status: 'done', ts: 4 },
    ];
    await h.post({ type: 'snapshot', seq: 1, role: 'actor', cards });
    const card = h.page.locator('[data-card-id="mcp"]');
    await card.waitFor();
    assert.equal(await card.locator('.tool-summary').textContent(), 'Called Echo Tool · hello from the workbench');
    assert.equal(await card.locator('.tool-name').textContent(), 'everything');
    assert.equal(await card.locator('.tool-name').getAttribute('title'), 'Echo Tool (tool everything__echo)');
    // Two reads of a tool the webview never heard of are one line, like any run of reads.
    await h.page.getByRole('button', { name: 'Read 2 files' }).waitFor();
  });

  it('offers Revert task in the header only while the task has revertible changes, behind a confirmation', async () => {
    const tool = (id: string, extra: Record<string, unknown>) => ({ kind: 'tool_call', id, call_id: `c-${id}`, tool: 'edit_file', summary: `edit ${id}.txt`, args: {}, status: 'done', ts: 1, ...extra });
    await h.post({ type: 'snapshot', seq: 1, role: 'actor', cards: [tool('a', {})] });
    await h.page.locator('[data-card-id="a"]').waitFor();
    assert.equal(await h.page.getByRole('button', { name: 'Revert task' }).count(), 0, 'nothing to revert: no button');
    await h.post({ type: 'card_added', seq: 2, card: tool('b', { revertible: true }) });
    await h.post({ type: 'card_added', seq: 3, card: tool('c', { revertible: true }) });
    await clearSent(h.page);
    await h.page.getByRole('button', { name: 'Revert task' }).click();
    const confirm = h.page.getByRole('group', { name: 'Revert the whole task' });
    assert.match(await confirm.innerText(), /all 2 changes/);
    // Keyboard: focus lands on Cancel, and Escape cancels the confirmation without stopping anything.
    assert.equal(await h.page.evaluate(() => document.activeElement?.textContent), 'Cancel');
    await h.page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });
    assert.deepEqual(await sent(h.page), []);
    await h.page.getByRole('button', { name: 'Revert task' }).click();
    await confirm.getByRole('button', { name: 'Revert all' }).click();
    assert.deepEqual(await sent(h.page), [{ type: 'revert_task' }]);
    await h.post({ type: 'card_patched', seq: 4, id: 'b', patch: { reverted: true, revertible: false } });
    await h.post({ type: 'card_patched', seq: 5, id: 'c', patch: { reverted: true, revertible: false } });
    await h.page.getByRole('button', { name: 'Revert task' }).waitFor({ state: 'detached' });
  });

  it('follows streamed text at the bottom, but not after the user scrolls up', async () => {
    await h.post({ type: 'snapshot', seq: 1, role: 'actor', cards: [...fx.bigTask(300), { kind: 'text', id: 'live', author: 'assistant', text: 'start', streaming: true, ts: 1 }] });
    await h.page.waitForSelector('[data-card-id="live"]');
    const gapToBottom = () => h.page.evaluate(() => { const l = document.querySelector('[role="log"]')!; return l.scrollHeight - l.scrollTop - l.clientHeight; });
    let seq = 2;
    const appendLines = async (n: number) => {
      for (let i = 0; i < n; i++) await h.post({ type: 'text_appended', seq: seq++, id: 'live', text: `\n\nline ${seq}` });
      // The header's state line says what came after the lines (the live card may be out of view):
      // events apply in order, so once it shows, every line before it is in the chat.
      const marker = `after line ${seq - 1}`;
      await h.post({ type: 'agent_state', seq: seq++, state: 'thinking', detail: marker });
      await h.page.waitForSelector(`[data-agent-state="thinking"][title="${marker}"]`);
      await h.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    };
    await appendLines(30);
    assert.ok((await gapToBottom()) < 2, 'stuck to the bottom while streaming');
    // The user scrolls up to read (scrollTop set directly: a wheel scroll animates for a while).
    await h.page.evaluate(() => new Promise((r) => {
      const l = document.querySelector('[role="log"]');
      l.scrollTop = l.scrollTop - 1500;
      requestAnimationFrame(() => requestAnimationFrame(r));
    }));
    // What the user is reading must stay where it is while text keeps arriving below.
    const readingTop = () => h.page.evaluate(() => {
      const l = document.querySelector('[role="log"]').getBoundingClientRect();
      const rows = [...document.querySelectorAll('[role="log"] [data-card-id]')];
      const el = rows.find((e: any) => e.getBoundingClientRect().top >= l.top + 50);
      return { id: el.getAttribute('data-card-id'), top: Math.round(el.getBoundingClientRect().top) };
    });
    const before = await readingTop();
    await appendLines(30);
    const after = await h.page.evaluate((id) => Math.round(document.querySelector(`[data-card-id="${id}"]`).getBoundingClientRect().top), before.id);
    assert.ok(Math.abs(after - before.top) < 2, `card ${before.id} stayed in place while reading (${before.top} → ${after})`);
    assert.ok((await gapToBottom()) > 1000, 'did not jump to the bottom');
    await h.page.getByRole('button', { name: 'Scroll to latest' }).click();
    await appendLines(5);
    assert.ok((await gapToBottom()) < 2, 'following again after "Latest"');
  });

  it('a scroll up stays put when new text renders before its scroll event (a late frame under load)', async () => {
    await h.post({ type: 'snapshot', seq: 1, role: 'actor', cards: [...fx.bigTask(300), { kind: 'text', id: 'live', author: 'assistant', text: 'start', streaming: true, ts: 1 }] });
    await h.page.waitForSelector('[data-card-id="live"]');
    await h.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const gap = await h.page.evaluate(() => { const l = document.querySelector('[role="log"]')!; return l.scrollHeight - l.scrollTop - l.clientHeight; });
    assert.ok(gap < 2, `stuck to the end at first (${gap} px from it)`);
    // The user scrolls up, and before the browser's next frame tells the list so, a message renders:
    // the inbound queue's timer flushes first when frames come late (here the frame callback runs at once).
    const seen = await h.page.evaluate(() => new Promise<{ wanted: number; now: number; gap: number }>((resolve) => {
      const l = document.querySelector('[role="log"]')!;
      const raf = window.requestAnimationFrame;
      window.requestAnimationFrame = (cb: (t: number) => void) => { cb(performance.now()); return 0; };
      l.scrollTop -= 1500;
      const wanted = l.scrollTop;
      window.dispatchEvent(new MessageEvent('message', { data: { type: 'text_appended', seq: 2, id: 'live', text: '\n\nmore text' } }));
      window.requestAnimationFrame = raf;
      raf(() => raf(() => resolve({ wanted, now: l.scrollTop, gap: l.scrollHeight - l.scrollTop - l.clientHeight })));
    }));
    // (Rows above the view measured anew may move it by their difference, to keep the card being read in place.)
    assert.ok(seen.gap > 1000, `the view stayed where the user scrolled (${seen.wanted} → ${seen.now}, ${Math.round(seen.gap)} px above the end), not pulled back to the end`);
    await h.post({ type: 'text_appended', seq: 3, id: 'live', text: '\n\nand more' });
    await h.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const later = await h.page.evaluate(() => { const l = document.querySelector('[role="log"]')!; return l.scrollHeight - l.scrollTop - l.clientHeight; });
    assert.ok(later > 1000, `and it does not follow the end afterwards (${Math.round(later)} px above it)`);
  });

  it('renders only a window of a 10,000-card task', async () => {
    await h.post({ type: 'snapshot', seq: 1, role: 'actor', cards: fx.bigTask(10_000) });
    await h.page.waitForSelector('[data-card-id="c9999"]');
    const inDom = await h.page.locator('[role="log"] [data-card-kind]').count();
    assert.ok(inDom > 3 && inDom < 100, `${inDom} cards in the DOM`);
  });

  it('asks for a snapshot with its last sequence number on a gap, and after a reload', async () => {
    await h.post({ type: 'snapshot', seq: 5, role: 'planner', cards: [{ kind: 'text', id: 'a', author: 'assistant', text: 'x', ts: 1 }] });
    await h.page.waitForSelector('[data-card-id="a"]');
    await clearSent(h.page);
    await h.post({ type: 'text_appended', seq: 9, id: 'a', text: 'y' });
    await h.page.waitForFunction(() => (window as unknown as { __sent: unknown[] }).__sent.length > 0);
    assert.deepEqual(await sent(h.page), [{ type: 'ready', last_seq: 9 }]);
    // Hidden and shown again: the page is re-created and starts from the state it saved.
    await h.page.evaluate(() => new Promise((r) => setTimeout(r, 400))); // state writes are throttled
    await h.page.reload();
    await h.page.waitForFunction(() => (window as unknown as { __sent: unknown[] }).__sent.length > 0);
    assert.deepEqual((await sent(h.page))[0], { type: 'ready', last_seq: 9 });
  });

  it('comes back at the same scroll position after being hidden and shown', async () => {
    const snapshot = { type: 'snapshot', seq: 300, role: 'actor', cards: fx.bigTask(300) };
    await h.post(snapshot);
    await h.page.waitForSelector('[data-card-id="c299"]');
    await h.page.evaluate(() => { document.querySelector('[role="log"]').scrollTop = 3000; });
    await h.page.waitForTimeout(500); // state writes are throttled
    // The card at the top of the view, and where it sits.
    const where = () => h.page.evaluate(() => {
      const top = document.querySelector('[role="log"]').getBoundingClientRect().top;
      const el = [...document.querySelectorAll('[role="log"] [data-card-id]')].find((e: any) => e.getBoundingClientRect().top >= top - 1);
      return { id: el.getAttribute('data-card-id'), y: Math.round(el.getBoundingClientRect().top - top) };
    });
    const before = await where();
    assert.equal((await h.page.evaluate(() => (window as any).__state)).stick_to_bottom, false);
    await h.page.reload();
    await h.page.waitForFunction(() => (window as any).__sent.length > 0);
    assert.deepEqual((await sent(h.page))[0], { type: 'ready', last_seq: 300 });
    await h.post(snapshot);
    await h.page.waitForSelector(`[data-card-id="${before.id}"]`);
    await h.page.waitForTimeout(200);
    const after = await where();
    assert.equal(after.id, before.id);
    assert.ok(Math.abs(after.y - before.y) < 3, `card ${before.id} at ${before.y}px before, ${after.y}px after`);
  });

  it('walks the first-run setup: preset, Test connection, a model per role, Save', async () => {
    await h.post({ type: 'setup_needed' });
    const setup = h.page.getByRole('region', { name: 'Set up Tandem' });
    await setup.getByRole('radio', { name: 'LM Studio' }).click();
    assert.equal(await setup.getByRole('textbox', { name: 'Base URL' }).inputValue(), 'http://localhost:1234/v1');
    await setup.getByRole('radio', { name: 'Custom URL' }).click();
    await setup.getByRole('textbox', { name: 'Base URL' }).fill('http://127.0.0.1:9/v1');
    await setup.getByLabel('API key').fill('sk-test');
    await clearSent(h.page);
    await setup.getByRole('button', { name: 'Test connection' }).click();
    assert.deepEqual(await sent(h.page), [{ type: 'test_connection', base_url: 'http://127.0.0.1:9/v1', api_key: 'sk-test' }]);
    // The endpoint's own error is shown.
    await h.post({ type: 'connection_result', ok: false, error: '401 Incorrect API key provided' });
    await setup.getByText('401 Incorrect API key provided').waitFor();
    await setup.getByRole('button', { name: 'Test connection' }).click();
    await h.post({ type: 'connection_result', ok: true, models: ['small-model', 'big-model'] });
    await setup.getByRole('combobox', { name: 'Planner model' }).selectOption('big-model');
    await clearSent(h.page);
    await setup.getByRole('button', { name: 'Save' }).click();
    assert.deepEqual(await sent(h.page), [{ type: 'save_settings', base_url: 'http://127.0.0.1:9/v1', api_key: 'sk-test', models: { planner: 'big-model', actor: 'small-model', reviewer: 'small-model' } }]);
    await h.post({ type: 'connection_result', ok: true });
    await setup.waitFor({ state: 'detached' });
  });

  it('fills and focuses the input when the host asks (prefill, focus_input)', async () => {
    await h.post({ type: 'prefill', text: 'Explain src/a.ts:1-20' });
    const input = h.page.getByRole('textbox', { name: 'Message Tandem' });
    await h.page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Message Tandem');
    assert.equal(await input.inputValue(), 'Explain src/a.ts:1-20');
  });

  it('keeps a tool result collapsed until asked, with errors shown open', async () => {
    await h.post({ type: 'snapshot', seq: 1, role: 'actor', cards: fx.demoCards().filter((c) => ['t1', 't4'].includes(String(c.id))) });
    const read = h.page.locator('[data-card-id="t1"]');
    await read.waitFor();
    assert.equal(await read.locator('pre').count(), 0, 'no result body while collapsed');
    await read.getByText('Result').click();
    await read.getByText('export function parseSignup').waitFor();
    await read.getByText('Arguments').click();
    await read.getByText('"path": "src/signup.ts"').waitFor();
    assert.match(await h.page.locator('[data-card-id="t4"] details[open]').innerText(), /EACCES/);
  });

  it('copies a code block with its Copy button', async () => {
    await h.page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.origin });
    await h.post({ type: 'snapshot', seq: 1, role: 'planner', cards: [{ kind: 'text', id: 'm', author: 'assistant', text: 'Run:\n\n```sh\nnpm test -- --grep "<b>"\n```', ts: 1 }] });
    const copy = h.page.locator('[data-card-id="m"]').getByRole('button', { name: 'Copy' });
    await copy.click();
    await h.page.locator('[data-card-id="m"]').getByRole('button', { name: 'Copied' }).waitFor();
    assert.equal(await h.page.evaluate(() => navigator.clipboard.readText()), 'npm test -- --grep "<b>"');
  });

  it('shows that the last turn was stopped once the agent is idle again', async () => {
    await h.post({ type: 'snapshot', seq: 1, role: 'planner', cards: [] });
    await h.post([{ type: 'agent_state', seq: 2, state: 'thinking' }, { type: 'turn_ended', seq: 3, outcome: 'stopped' }]);
    await h.page.locator('[data-turn-outcome="stopped"]').waitFor();
    assert.equal(await h.page.locator('[data-agent-state]').first().getAttribute('data-agent-state'), 'idle');
  });

  it('reaches every button with Tab and shows where focus is', async () => {
    await h.post({ type: 'snapshot', seq: 1, role: 'planner', cards: fx.demoCards().filter((c) => ['t2'].includes(String(c.id))) });
    await h.page.waitForSelector('[data-card-id="t2"]');
    const seen = new Set<string>();
    for (let i = 0; i < 15; i++) {
      await h.page.keyboard.press('Tab');
      const f = await h.page.evaluate(() => {
        const el = document.activeElement as HTMLElement;
        return { label: el.getAttribute('aria-label') ?? el.textContent?.trim() ?? '', outline: getComputedStyle(el).outlineStyle };
      });
      if (f.label) seen.add(f.label);
      if (f.label === 'Approve') assert.notEqual(f.outline, 'none', 'focus ring visible');
    }
    for (const name of ['Role', 'Open diff', 'Approve', 'Reject', 'Message Tandem']) assert.ok(seen.has(name), `${name} reachable by Tab: ${[...seen].join(', ')}`);
  });
});
