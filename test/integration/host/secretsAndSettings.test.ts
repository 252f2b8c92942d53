import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { ApiKeyStore, API_KEY_SECRET } from '../../../src/host/vscode/secrets';
import { readAgentSettings, SETTING, watchAgentSettings } from '../../../src/host/vscode/settings';
import { ChannelLogger } from '../../../src/host/vscode/logChannel';
import type { TandemTestApi } from '../../../src/host/vscode/testApi';
import { waitFor } from '../../support/wait';

async function testApi(): Promise<TandemTestApi> {
  const ext = vscode.extensions.all.find((e) => e.packageJSON?.name === 'tandem');
  assert.ok(ext, 'the Tandem extension is loaded');
  const api = (await ext.activate()) as TandemTestApi | undefined;
  assert.ok(api?.secrets, 'activate() returns the test API in test mode');
  return api;
}

describe('VS Code host: API key in SecretStorage', () => {
  const KEY = 'sk-test-0123456789abcdefghijklmnop';
  let keys: ApiKeyStore;
  let previous = '';

  before(async () => {
    const api = await testApi();
    keys = new ApiKeyStore(api.secrets);
    previous = await keys.get();
  });
  after(async () => {
    if (!keys) return;
    await keys.set(previous);
    keys.dispose();
  });

  it('round-trips the key through SecretStorage and tells listeners', async () => {
    let changes = 0;
    const sub = keys.onDidChange(() => changes++);
    try {
      await keys.set(`  ${KEY}\n`);
      assert.equal(await keys.get(), KEY, 'stored trimmed');
      await waitFor(() => changes > 0, 'the change event');
      await keys.clear();
      assert.equal(await keys.get(), '');
    } finally {
      sub.dispose();
    }
  });

  it('never puts the key in the tandem settings (or any setting)', async () => {
    await keys.set(KEY);
    const tandem = JSON.stringify(vscode.workspace.getConfiguration('tandem'));
    assert.ok(!tandem.includes(KEY), 'not in tandem.*');
    assert.ok(!JSON.stringify(vscode.workspace.getConfiguration()).includes(KEY), 'not anywhere in the configuration');
    assert.equal(vscode.workspace.getConfiguration('tandem').get('apiKey'), undefined);
    // It reaches the agent's settings only in memory, from SecretStorage.
    assert.equal(readAgentSettings(await keys.get()).apiKey, KEY);
  });

  it('is masked in the log channel even if a message carries it', () => {
    const logger = new ChannelLogger(vscode.window.createOutputChannel('Tandem test log', { log: true }));
    try {
      logger.setSecrets([KEY]);
      assert.equal(logger.redact(`calling with key ${KEY}`), 'calling with key ***');
      assert.ok(!logger.redact(`Authorization: Bearer ${KEY}`).includes(KEY));
      assert.ok(!logger.redact('Authorization: Bearer sk-another-key-that-nobody-told-us').includes('nobody-told-us'));
    } finally {
      logger.dispose();
    }
  });

  it('uses the secret name tandem.apiKey (not a setting of that name)', async () => {
    const api = await testApi();
    await keys.set(KEY);
    assert.equal(await api.secrets.get(API_KEY_SECRET), KEY);
  });
});

describe('VS Code host: settings', () => {
  const config = () => vscode.workspace.getConfiguration('tandem');
  const G = vscode.ConfigurationTarget.Global;

  afterEach(async () => {
    for (const k of [SETTING.baseUrl, 'model.planner', 'model.actor', 'limits.maxToolCallsPerTurn', SETTING.commandAllowList, SETTING.autoApproveEdit]) {
      await config().update(k, undefined, G);
    }
  });

  it('reads tandem.* into the agent settings', async () => {
    await config().update(SETTING.baseUrl, 'http://127.0.0.1:9/v1/', G);
    await config().update('model.planner', 'big-planner', G);
    await config().update('model.actor', 'fast-actor', G);
    await config().update('limits.maxToolCallsPerTurn', 7, G);
    await config().update(SETTING.commandAllowList, ['npm test', 'git status'], G);
    await config().update(SETTING.autoApproveEdit, true, G);
    const s = readAgentSettings('k');
    assert.equal(s.baseURL, 'http://127.0.0.1:9/v1');
    // A role whose model is not set (the Reviewer here) uses the first role's model.
    assert.deepEqual(s.models, { planner: 'big-planner', actor: 'fast-actor', reviewer: 'big-planner' });
    assert.equal(s.limits.maxToolCallsPerTurn, 7);
    assert.deepEqual(s.commandAllowList, ['npm test', 'git status']);
    assert.equal(s.approval.autoApprove.edit, true);
    assert.equal(s.approval.autoApprove.command, false);
    assert.equal(s.apiKey, 'k');
  });

  it('delivers a changed setting to the agent without a reload', async () => {
    const seen: string[] = [];
    const changed = new vscode.EventEmitter<void>();
    const sub = watchAgentSettings(async () => 'k', changed.event, (s) => seen.push(s.models.actor ?? ''));
    try {
      await config().update('model.actor', 'model-after-change', G);
      await waitFor(() => seen.includes('model-after-change'), 'the settings callback');
      changed.fire();
      await waitFor(() => seen.length >= 2, 'the key-change callback');
    } finally {
      sub.dispose();
      changed.dispose();
    }
  });
});
