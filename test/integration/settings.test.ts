import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { defaultSettings, DEFAULT_LIMITS } from '../../src/core/settings/settings';
import { readAgentSettings } from '../../src/host/vscode/settings';
import { EXTENSION_ID, tandem } from './support/tandem';

describe('tandem.* settings', () => {
  it('have the core defaults, so the editor and the CLI behave the same out of the box', async () => {
    await tandem();
    const c = vscode.workspace.getConfiguration('tandem');
    const d = defaultSettings();
    assert.strictEqual(c.get('baseUrl'), d.baseURL);
    assert.strictEqual(c.get('model.planner'), d.models.planner);
    assert.strictEqual(c.get('model.actor'), d.models.actor);
    assert.strictEqual(c.get('model.summary'), '');
    assert.strictEqual(c.get('maxTokens'), d.maxTokens);
    assert.strictEqual(c.get('structuredOutputs'), d.structuredOutputs);
    for (const k of ['edit', 'create', 'delete', 'command'] as const) {
      assert.strictEqual(c.get(`autoApprove.${k}`), d.approval.autoApprove[k], `autoApprove.${k}`);
    }
    assert.deepStrictEqual(c.get('commandAllowList'), d.commandAllowList);
    for (const [k, v] of Object.entries(DEFAULT_LIMITS)) assert.strictEqual(c.get(`limits.${k}`), v, `limits.${k}`);
    assert.strictEqual(c.get('contextWindow'), 0);
    assert.strictEqual(c.get('taskBudgetUsd'), d.taskBudgetUsd);
    // And read through the host's reader they are exactly the core's defaults.
    const plain = (x: unknown) => JSON.parse(JSON.stringify(x)) as unknown;
    assert.deepStrictEqual(plain(readAgentSettings('')), plain({ ...d, prices: {} }));
  });

  it('every setting has a description and a default, and none holds an API key', () => {
    const props = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON.contributes.configuration.properties as Record<string, { default?: unknown; description?: string; markdownDescription?: string }>;
    for (const [key, p] of Object.entries(props)) {
      assert.ok(key.startsWith('tandem.'), key);
      assert.ok(p.description || p.markdownDescription, `${key} has no description`);
      assert.ok('default' in p, `${key} has no default`);
      assert.doesNotMatch(key, /key|secret|token$/i, `${key}: the API key belongs in SecretStorage`);
    }
  });
});
