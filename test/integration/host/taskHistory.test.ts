import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ScriptedServer } from '../../support/scriptedServer';
import { AgentSession } from '../../../src/host/vscode/agentSession';
import { DiffApprover } from '../../../src/host/vscode/diffApprover';
import { PanelApprover } from '../../../src/host/vscode/panelApprover';
import { PanelQuestionAsker } from '../../../src/host/vscode/questionAsker';
import { TerminalCommandRunner } from '../../../src/host/vscode/terminalCommandRunner';
import { VscodeWorkspaceFs } from '../../../src/host/vscode/vscodeWorkspaceFs';
import { ApiKeyStore } from '../../../src/host/vscode/secrets';
import { NodeCommandRunner } from '../../../src/host/node/nodeCommandRunner';
import { defaultSettings } from '../../../src/core/settings/settings';
import { nullLogger, type HostPorts } from '../../../src/core/ports/ports';
import { HistoryStore } from '../../../src/core/history/historyStore';
import type { Card } from '../../../src/protocol';
import { closeAllEditors, removeDir, tempDir } from './helpers';
import { waitFor } from '../../support/wait';
import { MemorySecrets } from '../support/fakes';

/**
 * History in the real extension host: tasks recorded by the session the panel drives, revert of an
 * edit made through WorkspaceEdit (and its refusal when the user has typed in the editor since),
 * and a task resumed by a fresh session as after a window reload.
 */
describe('VS Code host: history, revert and resume (scripted model)', function () {
  this.timeout(60_000);
  let server: ScriptedServer;
  let dir: string;
  let historyDir: string;
  let file: string;
  let rel: string;
  let store: HistoryStore;
  const disposables: { dispose(): void }[] = [];
  let windows = 0;

  function makeSession(): { session: AgentSession; approver: DiffApprover; ports: HostPorts } {
    const wfs = new VscodeWorkspaceFs();
    const panel = new PanelApprover();
    const k = ++windows;
    const approver = new DiffApprover(panel, nullLogger, () => wfs.roots, { proposed: `tandem-proposed-hist${k}`, original: `tandem-original-hist${k}` });
    const asker = new PanelQuestionAsker();
    const runner = new TerminalCommandRunner({ fallback: new NodeCommandRunner() });
    disposables.push(wfs, panel, approver, asker, runner);
    const ports: HostPorts = { fs: wfs, commands: runner, approver, asker, logger: nullLogger };
    const session = new AgentSession({
      host: ports, approver, asker,
      keys: new ApiKeyStore(new MemorySecrets()),
      settings: defaultSettings({ baseURL: server.url, apiKey: 'k', models: { planner: 'gpt-4o', actor: 'gpt-4o' } }),
      history: store,
    });
    return { session, approver, ports };
  }

  beforeEach(async () => {
    server = await ScriptedServer.start([]);
    dir = tempDir('history');
    historyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-it-history-'));
    store = new HistoryStore(historyDir);
    file = path.join(dir, 'greeting.txt');
    fs.writeFileSync(file, 'Hello, world\n');
    rel = path.relative(new VscodeWorkspaceFs().roots[0]!, file).split(path.sep).join('/');
  });

  afterEach(async () => {
    await closeAllEditors();
    for (const d of disposables.splice(0)) d.dispose();
    await server.close();
    removeDir(dir);
    fs.rmSync(historyDir, { recursive: true, force: true });
  });

  it('reverts an approved edit in the editor, refuses once the user typed in it, and a reloaded window resumes the task', async () => {
    server.replace([
      { type: 'tool_calls', calls: [{ id: 'call_read', name: 'read_file', arguments: { path: rel } }] },
      { type: 'tool_calls', calls: [{ id: 'call_edit', name: 'edit_file', arguments: { path: rel, edits: [{ old_text: 'Hello, world', new_text: 'Hello, Tandem' }] } }] },
      { type: 'text', text: 'The greeting now says Tandem.' },
      // After the revert the file changed under the agent: it must read it again before editing.
      { type: 'tool_calls', calls: [{ id: 'call_read2', name: 'read_file', arguments: { path: rel } }] },
      { type: 'tool_calls', calls: [{ id: 'call_edit2', name: 'edit_file', arguments: { path: rel, edits: [{ old_text: 'Hello, world', new_text: 'Hi, Tandem' }] } }] },
      { type: 'text', text: 'Shorter now.' },
      { type: 'text', text: 'You asked me to greet Tandem; I did, and you reverted one change.' },
    ]);
    const { session, approver } = makeSession();
    const cards = (): Card[] => session.cards();
    const tool = (callId: string) => cards().find((c): c is Extract<Card, { kind: 'tool_call' }> => c.kind === 'tool_call' && c.call_id === callId);
    await session.handle({ type: 'set_role', role: 'actor' });
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(file));

    const turn = session.handle({ type: 'send', text: 'Make the greeting say Tandem' });
    await session.handle({ type: 'approve', call_id: await waitFor(() => approver.pendingProposals()[0], 'the edit proposal') });
    await turn;
    assert.equal(fs.readFileSync(file, 'utf8'), 'Hello, Tandem\n');
    await waitFor(() => tool('call_edit')?.revertible === true, 'the edit card to offer a revert');

    // Revert from the card: the file and the editor go back.
    await session.handle({ type: 'revert_call', call_id: 'call_edit' });
    assert.equal(editor.document.getText(), 'Hello, world\n');
    await waitFor(() => fs.readFileSync(file, 'utf8') === 'Hello, world\n' || undefined, 'the revert on disk');
    assert.equal(tool('call_edit')?.reverted, true);
    assert.ok(cards().some((c) => c.kind === 'text' && c.author === 'system' && /greeting\.txt restored/.test(c.text)));

    // A second change, then the user types in the editor (unsaved): the revert is refused, nothing changes.
    const turn2 = session.handle({ type: 'send', text: 'Make it shorter' });
    await session.handle({ type: 'approve', call_id: await waitFor(() => approver.pendingProposals()[0], 'the second proposal') });
    await turn2;
    await vscode.window.showTextDocument(editor.document);
    assert.ok(await editor.edit((e) => e.insert(new vscode.Position(1, 0), 'typed by the user\n')));
    await waitFor(() => tool('call_edit2')?.revertible === true, 'the second card to offer a revert');
    await session.handle({ type: 'revert_call', call_id: 'call_edit2' });
    assert.equal(editor.document.getText(), 'Hi, Tandem\ntyped by the user\n', 'the user\'s text is untouched');
    const refusal = cards().filter((c): c is Extract<Card, { kind: 'error' }> => c.kind === 'error').at(-1);
    assert.match(refusal?.message ?? '', /Nothing was reverted/);
    assert.match(refusal?.detail ?? '', /\+typed by the user/);

    // "Reload the window": the old session goes away; a new one resumes the task from disk.
    const id = session.task!.id;
    session.stop();
    await session.task!.close();
    const tasks = await store.list();
    assert.equal(tasks[0]?.id, id);
    assert.equal(tasks[0]?.title, 'Make the greeting say Tandem');

    const { session: reopened } = makeSession();
    const seen: unknown[] = [];
    reopened.onOutbound((m) => seen.push(m));
    await reopened.resumeTask(id);
    const snapshot = seen.find((m: any) => m.type === 'snapshot') as any;
    assert.equal(snapshot?.task_id, id);
    assert.ok(snapshot.cards.some((c: Card) => c.kind === 'tool_call' && c.call_id === 'call_edit' && c.reverted === true));
    assert.equal(reopened.role, 'actor', 'the task resumes in its role');
    await reopened.handle({ type: 'send', text: 'What did we do?' });
    const last = server.requests.filter((r) => r.path.endsWith('/chat/completions')).at(-1)!.body.messages as any[];
    assert.equal(last[1].content, 'Make the greeting say Tandem');
    assert.ok(last.some((m) => m.role === 'user' && /\[Note from Tandem\] Reverted \S*greeting\.txt restored/.test(m.content)), "the model was told about the revert");
    assert.equal(last.at(-1).content, 'What did we do?');
    reopened.stop();
    await reopened.task?.close();
  });

  it('a task saved mid-execution resumes with its interrupted cards ended: plan not executing (Execute usable), the pending approval no longer offered', async () => {
    const { session, approver } = makeSession();
    const plan = {
      format_version: '1.0', goal: 'Greet Tandem',
      steps: [{ step_number: 1, action: `Edit ${rel}`, reason: 'asked', tools_needed: ['edit_file'], estimated_time: '1 min', files: [rel] }],
      estimated_total_time: '1 min', risks: [], prerequisites: [],
    };
    server.replace([
      { type: 'tool_calls', calls: [{ id: 'call_plan', name: 'propose_plan', arguments: plan }] },
      { type: 'tool_calls', calls: [{ id: 'call_mid', name: 'edit_file', arguments: { path: rel, edits: [{ old_text: 'world', new_text: 'Tandem' }] } }] },
    ]);
    await session.handle({ type: 'send', text: 'Plan the greeting' });
    const planCard = session.cards().find((c): c is Extract<Card, { kind: 'plan' }> => c.kind === 'plan')!;
    const executing = session.handle({ type: 'execute_plan', card_id: planCard.id });
    await waitFor(() => approver.pendingProposals()[0], 'the edit waiting for approval');
    // The window goes away while the approval waits: what is on disk is the mid-run state.
    const id = session.task!.id;
    await session.task!.close();
    session.stop();
    await executing;

    const { session: reopened } = makeSession();
    const seen: any[] = [];
    reopened.onOutbound((m) => seen.push(m));
    await reopened.resumeTask(id);
    const cards = seen.find((m) => m.type === 'snapshot').cards as Card[];
    const p = cards.find((c): c is Extract<Card, { kind: 'plan' }> => c.kind === 'plan')!;
    assert.notEqual(p.executing, true, 'the plan is not shown executing');
    assert.notEqual(p.step_states['1'], 'running');
    // The step that was running is shown interrupted (stopped, with why), its changes kept: Continue from it runs it again.
    assert.equal(p.step_states['1'], 'stopped');
    assert.match(p.step_evidence?.['1']?.why.join(' ') ?? '', /interrupted: the task was closed while this step ran/);
    const call = cards.find((c): c is Extract<Card, { kind: 'tool_call' }> => c.kind === 'tool_call' && c.call_id === 'call_mid')!;
    // Ended, not pending: interrupted by the close (error), or by the Stop that came with it ('stopped', since 8f3e253).
    assert.ok(call.status === 'error' || call.status === 'stopped', `no Approve for a request nothing waits on (${call.status})`);
    assert.match(call.error ?? '', /Interrupted|[Ss]topped/);
    assert.equal(fs.readFileSync(file, 'utf8'), 'Hello, world\n', 'nothing was written');
    reopened.stop();
    await reopened.task?.close();
  });
});
