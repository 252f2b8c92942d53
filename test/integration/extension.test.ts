import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { EXTENSION_ID, tandem } from './support/tandem';

interface Contributes {
  commands: { command: string; title: string; category?: string }[];
  views: Record<string, { id: string; type?: string }[]>;
  viewsContainers: { activitybar: { id: string; title: string }[] };
}

/** The commands a user must find under "Tandem" in the palette. */
const PALETTE_COMMANDS = [
  'tandem.newTask', 'tandem.switchToPlanner', 'tandem.switchToActor', 'tandem.planFromSelection',
  'tandem.explainSelection', 'tandem.stop', 'tandem.setApiKey', 'tandem.selectModel',
  'tandem.openHistory', 'tandem.revertLastChange',
];

describe('Tandem in a real VS Code extension host', () => {
  it('activates, and runs in a Node extension host (fs, processes)', async () => {
    const { ext, api } = await tandem();
    assert.strictEqual(ext.isActive, true);
    assert.strictEqual(typeof api.activationMs, 'number');
    assert.notStrictEqual(vscode.env.uiKind, undefined);
    assert.strictEqual(typeof process.versions.node, 'string', 'the extension host must be Node, not a web worker');
  });

  it('contributes every command under the "Tandem" category', () => {
    const contributes = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON.contributes as Contributes;
    const byId = new Map(contributes.commands.map((c) => [c.command, c]));
    for (const id of PALETTE_COMMANDS) {
      assert.ok(byId.has(id), `${id} is not contributed`);
      assert.strictEqual(byId.get(id)!.category, 'Tandem', `${id} has no "Tandem" category`);
    }
  });

  it('registers a handler for every contributed command', async () => {
    await tandem();
    const contributes = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON.contributes as Contributes;
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = contributes.commands.map((c) => c.command).filter((id) => !registered.has(id));
    assert.deepStrictEqual(missing, [], `contributed but not registered: ${missing.join(', ')}`);
  });

  it('contributes a Tandem activity-bar container holding the chat webview view, then the Facts tree view', () => {
    const contributes = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON.contributes as Contributes;
    const container = contributes.viewsContainers.activitybar.find((c) => c.id === 'tandem');
    assert.ok(container, 'no "tandem" activity-bar container');
    assert.strictEqual(container.title, 'Tandem');
    // The chat first (it is what the container opens on), the Facts tree below it.
    assert.deepStrictEqual(contributes.views.tandem.map((v) => [v.id, v.type]), [['tandem.chat', 'webview'], ['tandem.facts', undefined]]);
  });
});
