import * as assert from 'node:assert';
import type { Logger } from '../../../src/core/ports/ports';
import type { PanelOutbound, WebviewMessage } from '../../../src/protocol';
import { FRAME_MS, MessageBridge } from '../../../src/panel/messageBridge';

function recordingLogger() {
  const lines: string[] = [];
  const logger: Logger = { info: (m) => lines.push(`info ${m}`), warn: (m) => lines.push(`warn ${m}`), error: (m) => lines.push(`error ${m}`), debug: () => {} };
  return { lines, logger };
}

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));
const textCard = (i: number): PanelOutbound => ({ type: 'text_appended', seq: i, id: 'c1', text: `t${i}` });

describe('panel message bridge', () => {
  it('hands valid webview messages to the handler and drops invalid ones with a log line', async () => {
    const { lines, logger } = recordingLogger();
    const got: WebviewMessage[] = [];
    const bridge = new MessageBridge({ post: () => {} }, (m) => { got.push(m); }, logger);

    assert.strictEqual(bridge.receive({ type: 'send', text: 'hello' }), true);
    assert.strictEqual(bridge.receive({ type: 'set_role', role: 'root' }), false);
    assert.strictEqual(bridge.receive({ type: 'exec_shell', cmd: 'rm -rf /' }), false);
    assert.strictEqual(bridge.receive('send'), false);
    assert.strictEqual(bridge.receive(null), false);
    assert.strictEqual(bridge.receive({ type: 'send', text: 'x'.repeat(100_001) }), false);
    await tick(5);

    assert.deepStrictEqual(got, [{ type: 'send', text: 'hello' }]);
    assert.strictEqual(bridge.droppedCount, 5);
    assert.strictEqual(lines.filter((l) => l.startsWith('warn webview: dropped invalid message')).length, 5);
  });

  it('never logs the payload of a dropped message (it may carry the API key)', async () => {
    const { lines, logger } = recordingLogger();
    const bridge = new MessageBridge({ post: () => {} }, () => {}, logger);
    const secret = 'sk-live-0123456789abcdefSECRET';
    // Invalid on purpose (base_url is not a string), with a key in it.
    bridge.receive({ type: 'save_settings', base_url: 42, api_key: secret, models: { planner: 'm', actor: 'm' } });
    await tick(5);
    assert.strictEqual(lines.length, 1);
    assert.ok(!lines[0].includes(secret), lines[0]);
    assert.match(lines[0], /save_settings/);
  });

  it('tells the user a message was not taken, why, without its payload, and at most once per 10 s', async () => {
    const told: string[] = [];
    const bridge = new MessageBridge({ post: () => {} }, () => {}, recordingLogger().logger, (why) => told.push(why));
    const secret = 'sk-live-0123456789abcdefSECRET';
    bridge.receive({ type: 'save_settings', base_url: 42, api_key: secret, models: { planner: 'm', actor: 'm' } });
    for (let i = 0; i < 50; i++) bridge.receive({ type: 'exec_shell', cmd: 'rm -rf /' });
    bridge.receive({ type: 'send', text: 'fine' });
    await tick(5);
    assert.strictEqual(told.length, 1, 'one notice for a burst of bad messages');
    assert.match(told[0], /save_settings/);
    assert.match(told[0], /base_url/);
    assert.ok(!told[0].includes(secret), told[0]);
  });

  it('logs a handler that throws and keeps accepting messages', async () => {
    const { lines, logger } = recordingLogger();
    let calls = 0;
    const bridge = new MessageBridge({ post: () => {} }, () => { calls++; throw new Error('boom'); }, logger);
    bridge.receive({ type: 'stop' });
    bridge.receive({ type: 'stop' });
    await tick(5);
    assert.strictEqual(calls, 2);
    assert.strictEqual(lines.filter((l) => l.startsWith('error') && l.includes('boom')).length, 2);
  });

  it('batches outbound messages per frame, in order, one post per frame', async () => {
    const posts: PanelOutbound[][] = [];
    const bridge = new MessageBridge({ post: (b) => { posts.push(b); return Promise.resolve(true); } }, () => {}, recordingLogger().logger);
    for (let i = 0; i < 100; i++) bridge.post(textCard(i));
    assert.strictEqual(posts.length, 0, 'nothing is posted before the frame ends');
    await tick(FRAME_MS * 3);
    assert.strictEqual(posts.length, 1);
    assert.deepStrictEqual(posts[0].map((m) => (m as { seq: number }).seq), [...Array(100).keys()]);

    bridge.post(textCard(100));
    await tick(FRAME_MS * 3);
    assert.strictEqual(posts.length, 2);
    assert.strictEqual(posts[1].length, 1);
  });

  it('posts nothing after dispose, and a failed post is logged, not thrown', async () => {
    const { lines, logger } = recordingLogger();
    let posted = 0;
    const failing = new MessageBridge({ post: () => Promise.reject(new Error('webview is disposed')) }, () => {}, logger);
    failing.post(textCard(1));
    failing.flush();
    await tick(5);
    assert.ok(lines.some((l) => l.includes('post failed')), lines.join('\n'));

    const bridge = new MessageBridge({ post: () => { posted++; } }, () => {}, logger);
    bridge.post(textCard(1));
    bridge.dispose();
    bridge.post(textCard(2));
    await tick(FRAME_MS * 3);
    assert.strictEqual(posted, 0);
  });
});
