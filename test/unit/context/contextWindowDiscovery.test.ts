/**
 * Before assuming a context window for a model it does not know, Tandem asks the endpoint: the
 * scripted server answers `/props` as llama-server does (the slot's n_ctx) or lists the window in
 * its `/models` entry, and the task's context meter and notes use that window, said as known.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ContextWindowProbe, windowFromModels, windowFromProps } from '../../../src/core/llm/contextWindowProbe';
import { createNodeHost } from '../../../src/host/node/nodeHost';
import { defaultSettings } from '../../../src/core/settings/settings';
import { startTask } from '../../../src/core/runtime/runningTask';
import type { ContextMeasure } from '../../../src/core/runtime/taskContextFitting';
import { HeadlessAsker } from '../../../src/host/node/headlessAsker';
import { ScriptedServer, type ScriptedServerOptions } from '../../support/scriptedServer';
import type { HostEvent } from '../../../src/protocol';

describe('context window discovery: the endpoint is asked before a window is assumed', function () {
  this.timeout(20_000);
  const servers: ScriptedServer[] = [];
  afterEach(async () => { for (const s of servers.splice(0)) await s.close(); });
  const serve = async (o: ScriptedServerOptions, steps = [] as Parameters<typeof ScriptedServer.start>[0]) => {
    const s = await ScriptedServer.start(steps, o);
    servers.push(s);
    return s;
  };

  it('reads llama-server\'s /props n_ctx (at the root, beside /v1)', async () => {
    const s = await serve({ models: ['local-gguf'], props: { default_generation_settings: { n_ctx: 16_384 }, total_slots: 1 } });
    assert.equal(await new ContextWindowProbe().window(`${s.url}`, '', 'local-gguf'), 16_384);
    assert.ok(s.requests.some((r) => r.path === '/props'), 'asked /props at the server root');
  });

  it('reads the /models entry\'s window (context_length, max_model_len, meta.n_ctx) for the model asked about', async () => {
    const s = await serve({ models: ['a', 'b', 'c'], modelInfo: { a: { context_length: 65_536 }, b: { max_model_len: 32_768 }, c: { meta: { n_ctx: 4096 } } } });
    const probe = new ContextWindowProbe();
    assert.equal(await probe.window(s.url, 'k', 'a'), 65_536);
    assert.equal(await probe.window(s.url, 'k', 'b'), 32_768);
    assert.equal(await probe.window(s.url, 'k', 'c'), 4096);
    assert.equal(await probe.window(s.url, 'k', 'not-listed'), undefined);
  });

  it('asks once per endpoint and model, also when the endpoint says nothing', async () => {
    const s = await serve({ models: ['quiet'] });
    const probe = new ContextWindowProbe();
    assert.equal(await probe.window(s.url, '', 'quiet'), undefined);
    assert.equal(await probe.window(s.url, '', 'quiet'), undefined);
    assert.equal(s.requests.filter((r) => r.path.endsWith('/models')).length, 1);
  });

  it('the pure readers ignore junk', () => {
    assert.equal(windowFromProps({ default_generation_settings: { n_ctx: -1 } }), undefined);
    assert.equal(windowFromProps('nope'), undefined);
    assert.equal(windowFromModels({ data: [{ id: 'x', context_length: '8k' }] }, 'x'), undefined);
    assert.equal(windowFromModels({ data: 'x' }, 'x'), undefined);
  });

  it('a task on an unknown model uses the window /props reports: the meter says it is known, no "assumed" note', async () => {
    const s = await serve({ models: ['my-local-model'], props: { default_generation_settings: { n_ctx: 32_768 } } }, [{ type: 'text', text: 'hi' }]);
    const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-window-')));
    try {
      const settings = defaultSettings({ baseURL: s.url, apiKey: '', models: { planner: 'my-local-model', actor: 'my-local-model' } });
      settings.limits = { ...settings.limits, maxRetries: 0, requestIdleTimeoutMs: 5000 };
      const measured: ContextMeasure[] = [];
      const events: HostEvent[] = [];
      const task = startTask(
        { host: createNodeHost({ roots: [ws], asker: new HeadlessAsker('none') }), settings: () => settings, workspace: ws },
        { role: 'actor', sink: (e) => events.push(e), onContextMeasured: (m) => measured.push(m) },
      );
      assert.equal(await task.agent.send('hello'), 'done');
      assert.deepEqual(measured.map((m) => [m.window, m.known]), [[32_768, true]]);
      const notes = task.agent.cards().filter((c) => c.kind === 'text' && c.author === 'system' && /context window of my-local-model is not known/.test(c.text));
      assert.equal(notes.length, 0, 'no "window assumed" note when the server said it');
      await task.close();
    } finally {
      fs.rmSync(ws, { recursive: true, force: true });
    }
  });

  it('a server that reports nothing: the window is assumed and the meter says so', async () => {
    const s = await serve({ models: ['my-local-model'] }, [{ type: 'text', text: 'hi' }]);
    const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-window-')));
    try {
      const settings = defaultSettings({ baseURL: s.url, apiKey: '', models: { planner: 'my-local-model', actor: 'my-local-model' } });
      settings.limits = { ...settings.limits, maxRetries: 0, requestIdleTimeoutMs: 5000 };
      const measured: ContextMeasure[] = [];
      const task = startTask(
        { host: createNodeHost({ roots: [ws], asker: new HeadlessAsker('none') }), settings: () => settings, workspace: ws },
        { role: 'actor', sink: () => undefined, onContextMeasured: (m) => measured.push(m) },
      );
      assert.equal(await task.agent.send('hello'), 'done');
      assert.deepEqual(measured.map((m) => [m.window, m.known]), [[8192, false]]);
      await task.close();
    } finally {
      fs.rmSync(ws, { recursive: true, force: true });
    }
  });
});
