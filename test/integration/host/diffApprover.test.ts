import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DiffApprover, registerDiffTitleCommands } from '../../../src/host/vscode/diffApprover';
import { PanelApprover } from '../../../src/host/vscode/panelApprover';
import type { ApprovalRequest } from '../../../src/core/ports/ports';
import { closeAllEditors, removeDir, tempDir } from './helpers';
import { waitFor } from '../../support/wait';

// Own schemes and command ids: the extension under test has registered the real ones already.
const SCHEMES = { proposed: 'tandem-proposed-it', original: 'tandem-original-it' };
const IDS = { approve: 'tandemIt.approveChange', reject: 'tandemIt.rejectChange' };

function diffTabFor(scheme: string): vscode.Tab | undefined {
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs)
    .find((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === scheme);
}

describe('VS Code host: diff approver', function () {
  this.timeout(30_000);
  let dir: string;
  let panel: PanelApprover;
  let approver: DiffApprover;
  let commands: vscode.Disposable;
  let n = 0;

  before(() => {
    panel = new PanelApprover();
    approver = new DiffApprover(panel, undefined, () => [dir], SCHEMES);
    commands = registerDiffTitleCommands(approver, undefined, IDS);
  });
  after(() => { commands.dispose(); approver.dispose(); panel.dispose(); });
  beforeEach(() => { dir = tempDir('diff'); });
  afterEach(async () => { await closeAllEditors(); removeDir(dir); });

  function editRequest(file: string, original: string, proposed: string): ApprovalRequest {
    return {
      callId: `call_${++n}`,
      tool: 'edit_file',
      info: { kind: 'edit', path: path.relative(dir, file), real_path: file, added: 1, removed: 1 },
      originalText: original,
      proposedText: proposed,
    };
  }

  it('opens the diff without taking focus from the editor the user is typing in', async () => {
    const file = path.join(dir, 'a.txt');
    fs.writeFileSync(file, 'old\n');
    fs.writeFileSync(path.join(dir, 'typing.txt'), 'the user types here\n');
    const typing = await vscode.window.showTextDocument(vscode.Uri.file(path.join(dir, 'typing.txt')));
    const req = editRequest(file, 'old\n', 'new\n');
    const decided = approver.request(req, new AbortController().signal);
    const tab = await waitFor(() => diffTabFor(SCHEMES.proposed), 'the diff tab');
    assert.ok(tab.input instanceof vscode.TabInputTextDiff);
    assert.equal(tab.input.original.scheme, SCHEMES.original);
    assert.equal(vscode.window.activeTextEditor?.document, typing.document, 'focus stays in the editor the user was in');
    const right = await vscode.workspace.openTextDocument(tab.input.modified);
    const left = await vscode.workspace.openTextDocument(tab.input.original);
    assert.equal(right.getText(), 'new\n');
    assert.equal(left.getText(), 'old\n');

    assert.equal(approver.approve(req.callId), true);
    assert.deepEqual(await decided, { approved: true });
    await waitFor(() => !diffTabFor(SCHEMES.proposed), 'the diff tab to close');
  });

  it('returns the text the user edited in the diff (unsaved) as what was approved', async () => {
    const file = path.join(dir, 'b.ts');
    const req = editRequest(file, 'let x = 1;\n', 'let x = 2;\n');
    const decided = approver.request(req, new AbortController().signal);
    const tab = await waitFor(() => diffTabFor(SCHEMES.proposed), 'the diff tab');
    const right = await vscode.workspace.openTextDocument((tab.input as vscode.TabInputTextDiff).modified);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(right.uri, new vscode.Range(0, 0, right.lineCount, 0), 'let x = 42; // the user changed this\n');
    assert.equal(await vscode.workspace.applyEdit(edit), true, 'the proposal side is editable');
    assert.equal(right.isDirty, true);

    approver.approve(req.callId);
    assert.deepEqual(await decided, { approved: true, editedText: 'let x = 42; // the user changed this\n' });
    await waitFor(() => !diffTabFor(SCHEMES.proposed), 'the diff tab to close without a save prompt');
  });

  it('approves from the diff editor title bar command, with the proposal URI as argument', async () => {
    const file = path.join(dir, 'c.txt');
    const req = editRequest(file, 'a\n', 'b\n');
    const decided = approver.request(req, new AbortController().signal);
    const tab = await waitFor(() => diffTabFor(SCHEMES.proposed), 'the diff tab');
    await vscode.commands.executeCommand(IDS.approve, (tab.input as vscode.TabInputTextDiff).modified);
    assert.deepEqual(await decided, { approved: true });
  });

  it('rejects from the title bar and from the card, and Stop rejects too, closing the diff each time', async () => {
    const file = path.join(dir, 'd.txt');
    const r1 = editRequest(file, 'a\n', 'b\n');
    const d1 = approver.request(r1, new AbortController().signal);
    const tab = await waitFor(() => diffTabFor(SCHEMES.proposed), 'the diff tab');
    await vscode.commands.executeCommand(IDS.reject, (tab.input as vscode.TabInputTextDiff).modified);
    assert.equal((await d1).approved, false);

    const r2 = editRequest(file, 'a\n', 'b\n');
    const d2 = approver.request(r2, new AbortController().signal);
    await waitFor(() => diffTabFor(SCHEMES.proposed), 'the diff tab');
    approver.reject(r2.callId, 'not like this');
    assert.deepEqual(await d2, { approved: false, reason: 'not like this' });

    const ac = new AbortController();
    const d3 = approver.request(editRequest(file, 'a\n', 'b\n'), ac.signal);
    await waitFor(() => diffTabFor(SCHEMES.proposed), 'the diff tab');
    ac.abort();
    assert.equal((await d3).approved, false);
    await waitFor(() => !diffTabFor(SCHEMES.proposed), 'the diff tab to close');
  });

  it('re-opens a closed diff on "open_diff"', async () => {
    const file = path.join(dir, 'e.txt');
    const req = editRequest(file, 'a\n', 'b\n');
    const decided = approver.request(req, new AbortController().signal);
    const tab = await waitFor(() => diffTabFor(SCHEMES.proposed), 'the diff tab');
    await vscode.window.tabGroups.close(tab);
    assert.equal(diffTabFor(SCHEMES.proposed), undefined);
    assert.equal(await approver.openDiff(req.callId), true);
    await waitFor(() => diffTabFor(SCHEMES.proposed), 'the diff tab again');
    assert.equal(await approver.openDiff('no-such-call'), false);
    approver.reject(req.callId);
    await decided;
  });

  it('leaves commands to the chat card: no diff, resolved by the card', async () => {
    const req: ApprovalRequest = { callId: `call_${++n}`, tool: 'run_command', info: { kind: 'command', command: 'npm test', cwd: dir } };
    const decided = panel.request(req, new AbortController().signal);
    const viaApprover = approver.request({ ...req, callId: `call_${++n}` }, new AbortController().signal);
    assert.equal(diffTabFor(SCHEMES.proposed), undefined);
    assert.equal(approver.approve(req.callId), true);
    assert.equal(approver.approve('forged-id'), false, 'a click for a call nobody waits on is ignored');
    assert.deepEqual(await decided, { approved: true });
    approver.reject(`call_${n}`);
    assert.equal((await viaApprover).approved, false);
  });
});
