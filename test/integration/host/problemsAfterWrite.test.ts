import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ScriptedServer, type ScriptedToolCall } from '../../support/scriptedServer';
import { AgentSession } from '../../../src/host/vscode/agentSession';
import { DiffApprover } from '../../../src/host/vscode/diffApprover';
import { PanelApprover } from '../../../src/host/vscode/panelApprover';
import { PanelQuestionAsker } from '../../../src/host/vscode/questionAsker';
import { VscodeWorkspaceFs } from '../../../src/host/vscode/vscodeWorkspaceFs';
import { VscodeDiagnostics } from '../../../src/host/vscode/diagnostics';
import { ApiKeyStore } from '../../../src/host/vscode/secrets';
import { NodeCommandRunner } from '../../../src/host/node/nodeCommandRunner';
import { defaultSettings } from '../../../src/core/settings/settings';
import { nullLogger } from '../../../src/core/ports/ports';
import type { Card } from '../../../src/protocol';
import { closeAllEditors, removeDir, tempDir } from './helpers';
import { waitFor } from '../../support/wait';
import { calls, numberedTc as tc, text } from '../../support/scriptSteps';
import { MemorySecrets } from '../support/fakes';

const SCHEMES = { proposed: 'tandem-proposed-problems', original: 'tandem-original-problems' };

const CALC = [
  'export function double(n: number): number {',
  '  return n * 2;',
  '}',
  '',
  'export const four: number = double(2);',
  '',
].join('\n');

/**
 * After an approved write, the errors the editor's language services newly report for the file
 * (here TypeScript's, which no parser sees) go back to the model in the tool result and show on the
 * tool card; problems the file already had are not repeated.
 */
describe('VS Code host: new problems after an approved edit reach the model', function () {
  this.timeout(120_000);
  let server: ScriptedServer;
  let dir: string;
  let session: AgentSession;
  let approver: DiffApprover;
  let panel: PanelApprover;
  let asker: PanelQuestionAsker;
  let wfs: VscodeWorkspaceFs;

  before(async () => {
    // The TypeScript server starts once per window, which can take a while on a busy machine: wait
    // for its first verdict on a file of its own, so the test measures the edit, not the start-up.
    const warm = tempDir('problems-warm');
    const file = path.join(warm, 'warm.ts');
    fs.writeFileSync(file, 'export const x: number = "not a number";\n');
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(vscode.Uri.file(file)));
    await waitFor(() => vscode.languages.getDiagnostics(vscode.Uri.file(file)).length > 0, 'the TypeScript server to report on warm.ts', 90_000);
    await closeAllEditors();
    removeDir(warm);
  });

  beforeEach(async () => {
    server = await ScriptedServer.start([], {});
    dir = tempDir('problems');
    wfs = new VscodeWorkspaceFs();
    panel = new PanelApprover();
    approver = new DiffApprover(panel, nullLogger, () => wfs.roots, SCHEMES);
    asker = new PanelQuestionAsker();
    session = new AgentSession({
      // Longer quiet time than the product's: on a loaded test machine TypeScript's type check can
      // come well after its syntax check.
      host: { fs: wfs, commands: new NodeCommandRunner(), approver, asker, logger: nullLogger, diagnostics: new VscodeDiagnostics({ firstMs: 20_000, unknownFirstMs: 20_000, quietMs: 6000, capMs: 40_000 }) },
      approver, asker,
      keys: new ApiKeyStore(new MemorySecrets()),
      settings: defaultSettings({ baseURL: `${server.url}`, apiKey: 'k', models: { planner: 'm', actor: 'm' } }),
    });
  });

  afterEach(async () => {
    session.stop();
    await closeAllEditors();
    approver.dispose();
    panel.dispose();
    asker.dispose();
    wfs.dispose();
    await server.close();
    removeDir(dir);
  });

  const toolCard = (callId: string) => session.cards().find((c): c is Extract<Card, { kind: 'tool_call' }> => c.kind === 'tool_call' && c.call_id === callId);

  async function approveEdit(edit: ScriptedToolCall, preexisting?: string): Promise<{ result: string; card: string }> {
    const file = path.join(dir, 'calc.ts');
    fs.writeFileSync(file, preexisting ?? CALC);
    if (preexisting) {
      // The user has the file open and its problem is in the Problems view already.
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(vscode.Uri.file(file)));
      await waitFor(() => vscode.languages.getDiagnostics(vscode.Uri.file(file)).length > 0, 'the file\'s own problem', 60_000);
    }
    const rel = path.relative(wfs.roots[0]!, file).split(path.sep).join('/');
    (edit.arguments as { path: string }).path = rel;
    server.replace([calls(tc('read_file', { path: rel })), calls(edit), text('done')]);
    await session.handle({ type: 'set_role', role: 'actor' });
    const running = session.handle({ type: 'send', text: 'change calc.ts' });
    const callId = await waitFor(() => approver.pendingProposals()[0], 'the edit proposal', 60_000);
    await session.handle({ type: 'approve', call_id: callId });
    await running;
    const result = server.chatRequests()[2]!.messages.at(-1).content as string;
    return { result, card: toolCard(callId)?.result ?? '' };
  }

  it('an edit that introduces a type error returns the error to the model and shows it on the card', async () => {
    const { result, card } = await approveEdit(tc('edit_file', { path: '', edits: [{ old_text: 'double(2)', new_text: 'double("2")' }] }));
    assert.match(fs.readFileSync(path.join(dir, 'calc.ts'), 'utf8'), /double\("2"\)/, 'the approved edit was written');
    assert.match(result, /^Edited .*calc\.ts/);
    assert.match(result, /The editor reports 1 new problem in .*calc\.ts after this change:\n.*calc\.ts:5 error: Argument of type 'string' is not assignable to parameter of type 'number'\. \[ts\]/, result);
    assert.match(card, /Argument of type 'string' is not assignable/, 'the tool card shows it too');
    // The language services check only files in a tab: the edited file was opened in one.
    assert.ok(vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.input instanceof vscode.TabInputText && t.input.uri.fsPath === path.join(dir, 'calc.ts'))));
  });

  it('a problem the open file already had is not reported as new; a clean edit reports none', async () => {
    const broken = `${CALC}export const bad: string = 42;\n`;
    const { result } = await approveEdit(tc('edit_file', { path: '', edits: [{ old_text: 'return n * 2;', new_text: 'return n + n;' }] }), broken);
    assert.match(result, /^Edited .*calc\.ts/);
    assert.doesNotMatch(result, /new problem/, result);
  });
});
