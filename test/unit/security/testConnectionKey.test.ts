/**
 * "Test connection" from the setup card: the webview names the base URL and may leave the key
 * field empty. The webview is untrusted, so the stored API key may only go to the configured
 * `tandem.baseUrl`; a forged `test_connection` naming another endpoint must not receive it.
 * Real HTTP servers on 127.0.0.1 record the Authorization header each one was sent; the message
 * goes through the real host message handlers with `vscode` stubbed.
 */
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { installVscodeStub, vscodeStub } from './vscodeStub';
import type { HostUiMessage, WebviewMessage } from '../../../src/protocol';

installVscodeStub();
// Loaded after the stub: this file imports 'vscode'.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { hostMessageHandlers } = require('../../../src/host/vscode/hostMessages') as typeof import('../../../src/host/vscode/hostMessages');

const STORED_KEY = 'sk-stored-0123456789abcdef0123456789';

interface Endpoint { url: string; auth: string[]; close(): Promise<void> }

/** An OpenAI-like /v1/models that answers 401 unless it sees `wantKey` (any key when undefined). */
async function endpoint(wantKey?: string): Promise<Endpoint> {
  const auth: string[] = [];
  const server = http.createServer((req, res) => {
    const a = String(req.headers.authorization ?? '');
    auth.push(a);
    if (wantKey !== undefined && a !== `Bearer ${wantKey}`) {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ object: 'list', data: [{ id: 'model-a', object: 'model', created: 0, owned_by: 'x' }] }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}/v1`, auth, close: () => new Promise((r) => server.close(() => r())) };
}

describe('security: Test connection never sends the stored API key to an endpoint the webview names', function () {
  this.timeout(20_000);
  let configured: Endpoint;
  let other: Endpoint;
  let posted: HostUiMessage[];
  let handler: { handle(msg: Extract<WebviewMessage, { type: 'test_connection' }>): Promise<void> };
  const originalGetConfiguration = vscodeStub.workspace.getConfiguration;

  beforeEach(async () => {
    configured = await endpoint(STORED_KEY);
    other = await endpoint(STORED_KEY);
    // tandem.baseUrl is the configured endpoint, saved with a trailing slash.
    const configuredUrl = `${configured.url}/`;
    vscodeStub.workspace.getConfiguration = (() => ({
      get: (key: string, dflt?: unknown) => (key === 'baseUrl' ? configuredUrl : dflt),
      inspect: () => undefined, has: () => false, update: async () => {},
    })) as never;
    posted = [];
    const logger = { info() {}, warn() {}, error() {}, debug() {} };
    const keys = { get: async () => STORED_KEY, set: async () => {}, delete: async () => {} };
    const handlers = hostMessageHandlers({ approver: {} as never, asker: {} as never, keys: keys as never, logger });
    handler = { handle: async (msg) => void posted.push(await handlers.test_connection(msg)) };
  });
  afterEach(async () => {
    vscodeStub.workspace.getConfiguration = originalGetConfiguration;
    await configured.close();
    await other.close();
  });

  const result = () => posted.find((m): m is Extract<HostUiMessage, { type: 'connection_result' }> => m.type === 'connection_result');

  it('an empty key field and another base URL: tested without the stored key, and the 401 says so', async () => {
    await handler.handle({ type: 'test_connection', base_url: other.url, api_key: '' });
    assert.ok(other.auth.length > 0, 'the named endpoint was contacted');
    for (const a of other.auth) assert.ok(!a.includes(STORED_KEY), `stored key sent to ${other.url}: ${a}`);
    const r = result();
    assert.equal(r?.ok, false);
    assert.match(r?.error ?? '', /401/);
    assert.match(r?.error ?? '', /without an API key/i);
    assert.ok(!(r?.error ?? '').includes(STORED_KEY));
    // No key field at all behaves the same.
    posted.length = 0;
    await handler.handle({ type: 'test_connection', base_url: `${other.url}/` });
    for (const a of other.auth) assert.ok(!a.includes(STORED_KEY));
    assert.equal(result()?.ok, false);
  });

  it('the configured base URL (trailing slash or not) still uses the stored key', async () => {
    await handler.handle({ type: 'test_connection', base_url: configured.url });
    assert.deepEqual(result(), { type: 'connection_result', ok: true, models: ['model-a'], suggested: { planner: 'model-a', actor: 'model-a', reviewer: 'model-a' } });
    posted.length = 0;
    await handler.handle({ type: 'test_connection', base_url: ` ${configured.url}// `, api_key: '  ' });
    assert.equal(result()?.ok, true, result()?.error);
    assert.deepEqual(configured.auth, [`Bearer ${STORED_KEY}`, `Bearer ${STORED_KEY}`]);
  });

  it('a key typed in the card is used for the URL typed in the card', async () => {
    await handler.handle({ type: 'test_connection', base_url: other.url, api_key: STORED_KEY });
    assert.equal(result()?.ok, true, result()?.error);
    assert.deepEqual(other.auth, [`Bearer ${STORED_KEY}`]);
  });
});
