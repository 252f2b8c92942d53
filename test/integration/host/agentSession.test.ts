import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { processRunning } from '../../support/processByCommandLine';
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
import { nullLogger } from '../../../src/core/ports/ports';
import type { Card, HostEvent, HostUiMessage, PanelOutbound } from '../../../src/protocol';
import { closeAllEditors, removeDir, tempDir } from './helpers';
import { waitFor } from '../../support/wait';
import { calls, numberedTc as tc, text } from '../../support/scriptSteps';
import { MemorySecrets } from '../support/fakes';

const SCHEMES = { proposed: 'tandem-proposed-story', original: 'tandem-original-story' };

function plan(rel: string) {
  return {
    format_version: '1.0',
    goal: 'Greet Tandem instead of the world',
    steps: [{ step_number: 1, action: `In ${rel} replace "world" with "Tandem"`, reason: 'the user asked', tools_needed: ['edit_file'], estimated_time: '1 min', files: [rel] }],
    estimated_total_time: '1 min',
    risks: [],
    prerequisites: [],
  };
}

/**
 * The whole story at the host level, in the real extension host: the same AgentSession the panel
 * drives, on the real VS Code ports (WorkspaceEdit, terminal, diff), against the scripted LLM server.
 * The chat UI on top of it is covered by test/ui/story.test.ts.
 */
describe('VS Code host: agent session end to end (scripted model)', function () {
  this.timeout(60_000);
  let server: ScriptedServer;
  let dir: string;
  let rel: string;
  let file: string;
  let session: AgentSession;
  let approver: DiffApprover;
  let panel: PanelApprover;
  let asker: PanelQuestionAsker;
  let wfs: VscodeWorkspaceFs;
  let runner: TerminalCommandRunner;
  let out: PanelOutbound[];

  const events = () => out.filter((m): m is HostEvent => 'seq' in m);
  const cards = (): Card[] => session.cards();
  const cardOf = <K extends Card['kind']>(kind: K) => cards().filter((c): c is Extract<Card, { kind: K }> => c.kind === kind);

  beforeEach(async () => {
    server = await ScriptedServer.start([], {});
    dir = tempDir('story');
    file = path.join(dir, 'hello.txt');
    fs.writeFileSync(file, 'Hello, world\n');
    wfs = new VscodeWorkspaceFs();
    rel = path.relative(wfs.roots[0]!, file).split(path.sep).join('/');
    panel = new PanelApprover();
    approver = new DiffApprover(panel, nullLogger, () => wfs.roots, SCHEMES);
    asker = new PanelQuestionAsker();
    runner = new TerminalCommandRunner({ fallback: new NodeCommandRunner() });
    session = new AgentSession({
      host: { fs: wfs, commands: runner, approver, asker, logger: nullLogger },
      approver, asker,
      keys: new ApiKeyStore(new MemorySecrets()),
      settings: defaultSettings({ baseURL: `${server.url}`, apiKey: 'k', models: { planner: 'm', actor: 'm' } }),
    });
    out = [];
    session.onOutbound((m) => out.push(m));
  });

  afterEach(async () => {
    session.stop();
    await closeAllEditors();
    runner.dispose();
    approver.dispose();
    panel.dispose();
    asker.dispose();
    wfs.dispose();
    await server.close();
    removeDir(dir);
  });

  it('task → Planner reads → plan → Execute → diff → Approve: file changed on disk and in the editor; Undo restores it', async () => {
    server.replace([
      calls(tc('read_file', { path: rel })),
      calls(tc('propose_plan', plan(rel))),
      calls(tc('edit_file', { path: rel, edits: [{ old_text: 'Hello, world', new_text: 'Hello, Tandem' }] })),
      text('Step done: the greeting now says Tandem.'),
    ]);
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(file));

    await session.handle({ type: 'send', text: 'Make the greeting say Tandem' });
    const read = cardOf('tool_call').find((c) => c.tool === 'read_file');
    assert.equal(read?.status, 'done', read?.error);
    assert.match(read?.result ?? '', /Hello, world/);
    const planCard = cardOf('plan')[0];
    assert.ok(planCard?.plan, 'a validated plan card');
    assert.equal(session.role, 'planner');

    const executing = session.handle({ type: 'execute_plan', card_id: planCard.id });
    const callId = await waitFor(() => approver.pendingProposals()[0], 'the edit proposal');
    assert.equal(session.role, 'actor');
    const edit = cardOf('tool_call').find((c) => c.call_id === callId);
    assert.equal(edit?.status, 'pending');
    assert.equal(edit?.approval?.kind, 'edit');
    await waitFor(() => vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === SCHEMES.proposed), 'the diff to open');
    assert.equal(fs.readFileSync(file, 'utf8'), 'Hello, world\n', 'nothing written before approval');

    await session.handle({ type: 'approve', call_id: callId });
    await executing;
    assert.equal(fs.readFileSync(file, 'utf8'), 'Hello, Tandem\n');
    assert.equal(editor.document.getText(), 'Hello, Tandem\n');
    assert.equal(cardOf('tool_call').find((c) => c.call_id === callId)?.status, 'done');
    // The plan declared no check, so the step has no evidence that it worked: it ends unverified, and says why.
    assert.equal(cardOf('plan')[0]?.step_states['1'], 'unverified');
    assert.deepEqual(cardOf('plan')[0]?.step_evidence?.['1']?.why, ['no check was declared']);

    await vscode.window.showTextDocument(editor.document);
    await vscode.commands.executeCommand('undo');
    assert.equal(editor.document.getText(), 'Hello, world\n', 'Undo restores the text');
  });

  it('Reject leaves the file byte for byte unchanged, and the user\'s edit in the diff is what gets written', async () => {
    const original = Buffer.from('Hello, world\r\n\ttabs and “unicode” stay\r\n');
    fs.writeFileSync(file, original);
    server.replace([
      calls(tc('edit_file', { path: rel, edits: [{ old_text: 'world', new_text: 'there' }] })),
      text('Understood, not changing it.'),
      calls(tc('edit_file', { path: rel, edits: [{ old_text: 'world', new_text: 'there' }] })),
      text('Applied.'),
    ]);
    await session.handle({ type: 'set_role', role: 'actor' });
    const first = session.handle({ type: 'send', text: 'edit it' });
    const id1 = await waitFor(() => approver.pendingProposals()[0], 'the first proposal');
    await session.handle({ type: 'reject', call_id: id1, reason: 'no thanks' });
    await first;
    assert.deepEqual(fs.readFileSync(file), original, 'byte for byte unchanged');
    assert.equal(cardOf('tool_call').find((c) => c.call_id === id1)?.status, 'rejected');

    const second = session.handle({ type: 'send', text: 'try again' });
    const id2 = await waitFor(() => approver.pendingProposals()[0], 'the second proposal');
    const doc = await vscode.workspace.openTextDocument(approver.proposedUri(id2)!);
    const e = new vscode.WorkspaceEdit();
    e.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), 'Hello, user-edited\n');
    assert.ok(await vscode.workspace.applyEdit(e));
    await session.handle({ type: 'approve', call_id: id2 });
    await second;
    // The proposal keeps the file's CRLF line endings, so the user's line is written with CRLF too.
    assert.equal(fs.readFileSync(file, 'utf8'), 'Hello, user-edited\r\n');
  });

  it('a question card is answered by the click the panel forwards', async () => {
    server.replace([
      calls(tc('ask_question', { question: 'Which greeting?', severity: 'minor', options: [{ label: 'Formal', value: 'formal' }, { label: 'Casual', value: 'casual' }], default: 'casual', allow_custom: false })),
      text('Going casual.'),
    ]);
    const turn = session.handle({ type: 'send', text: 'greet' });
    const q = await waitFor(() => cardOf('question').find((c) => c.status === 'waiting'), 'the question card');
    await session.handle({ type: 'answer', card_id: q.id, value: 'not-an-option' });
    assert.equal(cardOf('question')[0]?.status, 'waiting', 'an answer that is not an option is ignored');
    await session.handle({ type: 'answer', card_id: q.id, value: 'casual' });
    await turn;
    assert.equal(cardOf('question')[0]?.status, 'answered');
    assert.equal(cardOf('question')[0]?.answer, 'casual');
    const second = server.requests.filter((r) => r.path.endsWith('/chat/completions'))[1];
    assert.match(JSON.stringify(second?.body.messages), /casual/);
  });

  it('Stop during a running command ends the turn and kills the command', async () => {
    const pidFile = path.join(dir, 'cmd.pid');
    // The command may run in the sandbox's own PID namespace, where `$$` means nothing outside: it is
    // found from here by its unique command line instead.
    const command = `echo started > ${pidFile}; sleep 60.4242`;
    const running = () => processRunning(['sleep', '60.4242']);
    server.replace([calls(tc('run_command', { command })), text('never')]);
    await session.handle({ type: 'set_role', role: 'actor' });
    const turn = session.handle({ type: 'send', text: 'run it' });
    const pending = await waitFor(() => cardOf('tool_call').find((c) => c.tool === 'run_command' && c.status === 'pending' && c.approval), 'the command approval');
    assert.equal(pending.approval?.command, command);
    await session.handle({ type: 'approve', call_id: pending.call_id });
    await waitFor(() => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8').trim() && running(), 'the command to start', 20_000);
    await session.handle({ type: 'stop' });
    await turn;
    assert.ok(events().some((e) => e.type === 'turn_ended' && e.outcome === 'stopped'));
    await waitFor(() => !running(), 'the command to be killed', 5000);
  });

  it('asks for setup on ready when no endpoint or key is configured', async () => {
    await session.handle({ type: 'ready' });
    assert.ok(out.some((m) => m.type === 'snapshot'));
    // The test profile has no tandem.baseUrl and the memory key store is empty.
    assert.ok(out.some((m) => (m as HostUiMessage).type === 'setup_needed'));
  });

  it('Retry after an error card runs the failed turn again: one user card, the message sent to the model once', async () => {
    const s = session.currentSettings;
    session.updateSettings({ ...s, limits: { ...s.limits, maxRetries: 0 } });
    server.replace([{ type: 'fault', fault: 'server_error', status: 500, message: 'scripted outage' }, text('Back after the outage.')]);
    await session.handle({ type: 'send', text: 'Say something after the outage' });
    const error = cardOf('error').at(-1);
    assert.equal(error?.retryable, true, error?.message);
    await session.handle({ type: 'retry' });
    assert.ok(cardOf('text').some((c) => c.author === 'assistant' && c.text.includes('Back after the outage.')), 'the retried turn succeeded');
    assert.equal(cardOf('text').filter((c) => c.author === 'user').length, 1, 'one user card');
    const msgs = (server.chatRequests().at(-1)?.messages ?? []) as Array<{ role: string; content: unknown }>;
    assert.equal(msgs.filter((m) => m.role === 'user' && String(m.content).includes('Say something after the outage')).length, 1, 'the message reached the model once');
  });

  it('closes a setup card that is no longer needed once a key (or endpoint) arrives', async () => {
    await session.handle({ type: 'ready' });
    assert.ok(out.some((m) => (m as HostUiMessage).type === 'setup_needed'));
    assert.ok(!out.some((m) => (m as HostUiMessage).type === 'setup_done'));
    await session.deps.keys.set('sk-test-0123456789abcdef0123');
    session.updateSettings(session.currentSettings);
    await waitFor(() => out.some((m) => (m as HostUiMessage).type === 'setup_done'), 'setup_done');
  });

  it('test_connection lists the endpoint\'s models, or returns its own error', async () => {
    await session.handle({ type: 'test_connection', base_url: server.url });
    const ok = out.find((m): m is Extract<HostUiMessage, { type: 'connection_result' }> => m.type === 'connection_result');
    assert.equal(ok?.ok, true, ok?.error);
    assert.ok((ok?.models ?? []).length > 0);
    out.length = 0;
    await session.handle({ type: 'test_connection', base_url: 'http://127.0.0.1:9/v1' });
    const bad = out.find((m): m is Extract<HostUiMessage, { type: 'connection_result' }> => m.type === 'connection_result');
    assert.equal(bad?.ok, false);
    assert.match(bad?.error ?? '', /127\.0\.0\.1:9|ECONNREFUSED|connect/i);
  });
});
