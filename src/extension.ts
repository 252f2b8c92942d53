import * as vscode from 'vscode';
import { ChatViewProvider } from './panel/chatViewProvider';
import { ChannelLogger } from './host/vscode/logChannel';
import { RoleStatusBar } from './host/vscode/roleStatusBar';
import { ApiKeyStore } from './host/vscode/secrets';
import { registerCommands } from './host/vscode/commands';
import { createVscodeHost } from './host/vscode/vscodeHost';
import type { TandemTestApi } from './host/vscode/testApi';
import { VscodeTaskHistory } from './host/vscode/taskHistory';
import { trackRunning } from './host/vscode/runningContext';
import { AttentionNotifier } from './host/vscode/attentionNotifier';
import { removeLeftoverWorktreesSoon } from './host/vscode/leftoverWorktrees';
import { evaluateModels } from './host/vscode/evaluateModels';
import { registerFactsView } from './host/vscode/factsView';

/**
 * What `activate` returns in extension test mode only (integration tests and the activation
 * benchmark); in normal use nothing is exported, so no other extension can reach our secrets.
 */
export interface TandemExports extends TandemTestApi {
  /** Wall time of `activate()` itself, in ms (module loading is measured by the bench separately). */
  readonly activationMs: number;
  readonly chatView: ChatViewProvider;
}

// Composition root: wires the pieces, nothing else.
export function activate(context: vscode.ExtensionContext): TandemExports | undefined {
  const t0 = performance.now();
  const logger = new ChannelLogger();
  const keys = new ApiKeyStore(context.secrets);
  // The agent on the VS Code ports (workspace edits, terminal, diff approvals, questions); its
  // session takes every validated webview message. Approvals and questions bring a visible chat forward.
  // History, checkpoints, condensing and the budget for every task, kept per workspace folder in global storage.
  const history = new VscodeTaskHistory(context, logger, () => host.session);
  const host = createVscodeHost(context, { logger, keys, revealChat: () => chatView.showIfVisible(), history: history.store });
  const session = host.session;
  const chatView = new ChatViewProvider(context.extensionUri, session, logger);
  const statusBar = new RoleStatusBar(session.role);
  const roleSub = session.onRoleChanged((role) => statusBar.show(role));
  const attention = new AttentionNotifier({ view: () => chatView.currentView, reveal: () => chatView.reveal(false), approve: (id) => host.approver.approve(id), reject: (id) => host.approver.reject(id) });
  const attentionSub = session.onOutbound((msg) => attention.onOutbound(msg));

  context.subscriptions.push(
    logger, keys, chatView, statusBar, roleSub, history, trackRunning(session), attention, attentionSub, chatView.onDidResolve((v) => attention.watch(v)),
    vscode.commands.registerCommand('tandem.revertTask', () => history.revertTask()),
    vscode.commands.registerCommand('tandem.mcpServers', () => host.mcp.showServers()),
    vscode.commands.registerCommand('tandem.hooks', () => host.hooks.show()),
    vscode.commands.registerCommand('tandem.evaluateModels', () => evaluateModels(context, { keys, logger })),
    vscode.window.registerWebviewViewProvider(ChatViewProvider.viewType, chatView),
    removeLeftoverWorktreesSoon(logger, host.ports.stepWorkspaces, history.store.dir),
  );

  // The Facts view beside the chat; a fact learned in the chat shows there at once.
  if (host.facts) {
    const facts = registerFactsView(context, { book: host.facts, logger, settings: () => session.currentSettings, onForgotten: (id) => session.markFactForgotten(id), cardById: (id) => session.cards().find((c) => c.id === id), taskId: () => session.task.id });
    context.subscriptions.push(session.onOutbound((m) => { if (m.type === 'card_added' && m.card.kind === 'learned') facts.changed(); }));
  }

  registerCommands(context, {
    agent: () => session.current,
    readOnlyReason: () => session.readOnlyReason,
    revealChat: () => chatView.reveal(false),
    // Through the chat's own path: the read-only gate, and the queue while a turn runs.
    sendPrompt: (text) => void session.handle({ type: 'send', text }),
    newTask: () => session.newTask(),
    postUi: (msg) => chatView.postUi(msg),
    keys,
    logger,
    openHistory: () => history.openHistory(),
    revertLastChange: () => history.revertLastChange(),
  });

  if (context.extensionMode !== vscode.ExtensionMode.Test) return undefined;
  return { secrets: context.secrets, keys, approver: host.approver, asker: host.asker, chatView, activationMs: performance.now() - t0 };
}

export function deactivate(): void {}
