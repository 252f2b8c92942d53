import * as vscode from 'vscode';
import type { HostPorts } from '../../core/ports/ports';
import { NodeCommandRunner } from '../node/nodeCommandRunner';
import { NodeWorkspaceFs } from '../node/nodeWorkspaceFs';
import { NodeStepWorkspaces } from '../node/nodeStepWorkspaces';
import { workspaceOpenTask } from './openTaskMemory';
import { AgentSession } from './agentSession';
import type { HistoryStore } from '../../core/history/historyStore';
import { DiffApprover, registerDiffTitleCommands } from './diffApprover';
import { VscodeDiagnostics } from './diagnostics';
import { VscodeCodeIntelligence } from './vscodeCodeIntelligence';
import { VscodeContextSources } from './vscodeContextSources';
import { MentionSearch } from './mentionSearch';
import type { ChannelLogger } from './logChannel';
import { PanelApprover } from './panelApprover';
import { PanelQuestionAsker } from './questionAsker';
import { findRipgrep } from './ripgrep';
import type { ApiKeyStore } from './secrets';
import { readAgentSettings, watchAgentSettings } from './settings';
import { TerminalCommandRunner } from './terminalCommandRunner';
import { userTerminalEnv } from './userTerminalEnv';
import type { TandemTestApi } from './testApi';
import { VscodeWorkspaceFs } from './vscodeWorkspaceFs';
import { PRODUCT_REGISTRIES } from '../../core/registries/registries';
import { withReadOnlyShell } from '../../core/registries/readOnlyShell';
import { withMcp } from '../../core/mcp/withMcp';
import { VscodeMcpServers } from './mcpServers';
import { VscodeUserHooks } from './userHooksSource';
import { createVscodeFactBook } from './vscodeFacts';
import type { FactBook } from '../../core/facts/factBook';

export interface VscodeHost {
  session: AgentSession;
  /** The window's MCP servers (their tools join every task's registry). */
  mcp: VscodeMcpServers;
  hooks: VscodeUserHooks;
  /** The workspace's facts (none without a workspace folder). */
  facts: FactBook | undefined;
  approver: DiffApprover;
  asker: PanelQuestionAsker;
  ports: HostPorts;
  /** Only in extension test mode (see TandemTestApi); undefined otherwise. */
  testApi: TandemTestApi | undefined;
}

/**
 * Builds the agent's ports on the VS Code API and the agent-backed chat session, and keeps the
 * agent's settings in step with `tandem.*` and the key. Everything it creates is disposed with the
 * extension. `revealChat` is called when something waits on the user (an approval, a question).
 */
export function createVscodeHost(
  context: vscode.ExtensionContext,
  deps: { logger: ChannelLogger; keys: ApiKeyStore; revealChat(): unknown; history?: HistoryStore },
): VscodeHost {
  const { logger, keys } = deps;
  const fs = new VscodeWorkspaceFs();
  const panelApprover = new PanelApprover();
  const approver = new DiffApprover(panelApprover, logger, () => fs.roots);
  const asker = new PanelQuestionAsker();
  const sandbox = () => {
    const c = vscode.workspace.getConfiguration('tandem.sandbox');
    const list = (k: string) => c.get<string[]>(k);
    return { network: c.get<boolean>('network') === true, secretFiles: list('hiddenFiles'), allowSecretFiles: list('shownFiles') };
  };
  // Every runner of the agent's commands sees the user's terminal environment setting.
  const env = userTerminalEnv;
  const commands = new TerminalCommandRunner({ fallback: new NodeCommandRunner({ sandbox, env }), logger, sandbox, env });
  const contextSources = new VscodeContextSources();
  const mentionSearch = new MentionSearch(fs);
  const ports: HostPorts = {
    fs,
    commands,
    approver,
    asker,
    diagnostics: new VscodeDiagnostics(),
    codeIntel: new VscodeCodeIntelligence(),
    context: contextSources,
    ripgrepPath: findRipgrep(vscode.env.appRoot),
    logger,
    // Copy-on-write views where Linux allows, else git worktrees (TANDEM_STEP_WORKSPACES=worktree asks for those);
    // their folders where TANDEM_WORKTREES_DIR says (tests), else a private folder in /dev/shm or the temp folder.
    stepWorkspaces: new NodeStepWorkspaces({ logger, env: process.env, ...(process.env.TANDEM_WORKTREES_DIR ? { dir: process.env.TANDEM_WORKTREES_DIR } : {}) }),
    // A plan step's worktree is no workspace folder of the editor: its files and commands go through
    // Node (sandboxed as in the workspace); approvals and questions still come to the chat.
    forRoot: (root, more) => ({
      fs: new NodeWorkspaceFs([root]),
      commands: new NodeCommandRunner({ env, sandbox: () => ({ ...sandbox(), ...(more?.readOnlyFolders ? { readOnlyFolders: more.readOnlyFolders } : {}), ...(more?.hideSecretsIn ? { hideSecretsIn: more.hideSecretsIn } : {}) }) }),
      approver,
      asker,
      ripgrepPath: ports.ripgrepPath,
      logger,
    }),
  };
  // The key arrives asynchronously (SecretStorage); the agent gets it before the first request can be typed.
  // Read-only roles (the Planner) may run commands in a read-only sandbox when the user turned it on (read at start).
  const readOnlyShell = vscode.workspace.getConfiguration('tandem').get<boolean>('readOnlyShell') === true;
  const mcp = new VscodeMcpServers(context, logger);
  const registries = withMcp(readOnlyShell ? withReadOnlyShell(PRODUCT_REGISTRIES) : PRODUCT_REGISTRIES, mcp.hub);
  const hooks = new VscodeUserHooks(context, logger);
  // The workspace's facts, beside its task history; the key is masked out of every fact.
  const facts: FactBook | undefined = deps.history ? createVscodeFactBook(deps.history.dir, context.globalStorageUri.fsPath, fs, (): string => session.currentSettings.apiKey) : undefined;
  const session = new AgentSession({
    host: ports,
    approver,
    asker,
    keys,
    settings: readAgentSettings(''),
    ...(deps.history ? { history: deps.history, openTask: workspaceOpenTask(context.workspaceState) } : {}),
    registries,
    mentionSearch,
    userHooks: (ui) => hooks.current(ui),
    ...(facts ? { facts, onFactsChanged: () => void vscode.commands.executeCommand('tandem.facts.refresh') } : {}),
  });
  // Started after activation: a server's start (or its approval question) never delays the chat.
  setTimeout(() => void mcp.reload().catch((err) => logger.warn(`MCP servers: ${err instanceof Error ? err.message : String(err)}`)), 0);
  const apply = async () => {
    const key = await keys.get();
    logger.setSecrets([key]);
    session.updateSettings(readAgentSettings(key));
  };
  void apply();

  context.subscriptions.push(
    fs, panelApprover, approver, asker, commands, mcp, contextSources, mentionSearch,
    registerDiffTitleCommands(approver, logger),
    watchAgentSettings(() => keys.get(), keys.onDidChange, (s) => {
      logger.setSecrets([s.apiKey]);
      session.updateSettings(s);
      logger.info(`settings: ${s.baseURL}, ${Object.entries(s.models).map(([role, model]) => `${role} ${model}`).join(', ')}`);
    }),
    panelApprover.onDidRequest(() => deps.revealChat()),
    asker.onDidAsk(() => deps.revealChat()),
  );

  const testApi = context.extensionMode === vscode.ExtensionMode.Test
    ? { secrets: context.secrets, keys, approver, asker }
    : undefined;
  return { session, mcp, hooks, facts, approver, asker, ports, testApi };
}
