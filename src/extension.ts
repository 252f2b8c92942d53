import * as vscode from 'vscode';
import { ChatViewProvider } from './panel/chatViewProvider';
import { EchoSession } from './panel/echoSession';
import { ChannelLogger } from './host/vscode/logChannel';
import { RoleStatusBar } from './host/vscode/roleStatusBar';
import { ApiKeyStore } from './host/vscode/secrets';
import { registerCommands } from './host/vscode/commands';
import { PanelApprover } from './host/vscode/panelApprover';
import { DiffApprover, registerDiffTitleCommands } from './host/vscode/diffApprover';
import { PanelQuestionAsker } from './host/vscode/questionAsker';
import { HostMessageHandler, isHostHandled } from './host/vscode/hostMessages';
import type { TandemTestApi } from './host/vscode/testApi';

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
  const workspaceRoots = () => (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
  const panelApprover = new PanelApprover();
  const approver = new DiffApprover(panelApprover, logger, workspaceRoots);
  const asker = new PanelQuestionAsker();

  // The chat runs on the echo session until the agent-backed session is wired in here.
  const session = new EchoSession(logger);
  const chatView = new ChatViewProvider(context.extensionUri, session, logger, (msg) =>
    isHostHandled(msg) ? hostMessages.handle(msg) : session.handle(msg));
  const hostMessages = new HostMessageHandler({ approver, asker, keys, logger, postUi: (m) => chatView.postUi(m) });
  const statusBar = new RoleStatusBar(session.role);
  const roleSub = session.onRoleChanged((role) => statusBar.show(role));

  context.subscriptions.push(
    logger, keys, panelApprover, approver, asker, chatView, statusBar, roleSub,
    vscode.window.registerWebviewViewProvider(ChatViewProvider.viewType, chatView),
    registerDiffTitleCommands(approver, logger),
  );

  const later = (what: string) => () =>
    vscode.window.showInformationMessage(`Tandem: ${what} arrives in a later version.`);
  registerCommands(context, {
    agent: () => session,
    revealChat: () => chatView.reveal(false),
    sendPrompt: (text) => void session.send(text),
    newTask: () => session.newTask(),
    postUi: (msg) => chatView.postUi(msg),
    keys,
    logger,
    openHistory: later('Open History'),
    revertLastChange: later('Revert Last Change'),
  });

  if (context.extensionMode !== vscode.ExtensionMode.Test) return undefined;
  return { secrets: context.secrets, keys, approver, asker, chatView, activationMs: performance.now() - t0 };
}

export function deactivate(): void {}
