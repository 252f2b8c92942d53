import * as vscode from 'vscode';
import { PRODUCT_ROLE_INFO, type HostUiMessage, type RoleId, type RoleInfo, type RoleRegistry } from '../../protocol';
import type { AgentApi } from '../../core/task/agentApi';
import type { Logger } from '../../core/ports/ports';
import type { ApiKeyStore } from './secrets';
import { listModels } from './connection';
import { readAgentSettings } from './settings';
import { modelFor } from '../../core/settings/settings';
import { selectionContext, selectionPrompt } from './selectionPrompt';
import { selectionMention } from './selectionMention';

/** What the command bodies need from the composition root. */
export interface CommandDeps {
  /** The agent of the current task (undefined before setup). */
  agent(): AgentApi | undefined;
  /** Why the current task is read-only here (another window took it over), if it is. */
  readOnlyReason?(): string | undefined;
  /** Shows the chat view. */
  revealChat(): Promise<void>;
  /** Sends a prompt exactly as if typed in the chat (user card, then a turn; queued while one runs; refused when read-only). */
  sendPrompt(text: string): void;
  /** Starts a fresh task (the old one stays in history). */
  newTask(): Promise<void>;
  /** Host → webview UI plumbing (focus, prefill, setup card). */
  postUi(msg: HostUiMessage): void;
  keys: ApiKeyStore;
  logger: Logger;
  /** The roles (default: the product's): one switch command each, and the model picker's choices. */
  roles?: RoleRegistry<RoleInfo>;
  /** Registered here only when given; otherwise the history work registers them itself. */
  openHistory?(): unknown;
  revertLastChange?(): unknown;
}

/** Registers the palette commands (except Approve/Reject Change: see diffApprover). */
export function registerCommands(context: vscode.ExtensionContext, deps: CommandDeps): void {
  const reg = (id: string, fn: (...args: unknown[]) => unknown) =>
    context.subscriptions.push(vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        return await fn(...args);
      } catch (e) {
        deps.logger.error(`${id} failed: ${e instanceof Error ? e.stack ?? e.message : e}`);
        void vscode.window.showErrorMessage(`Tandem: ${e instanceof Error ? e.message : e}`);
      }
    }));

  reg('tandem.newTask', async () => {
    await deps.newTask();
    await deps.revealChat();
    deps.postUi({ type: 'focus_input' });
  });
  const roles = deps.roles ?? PRODUCT_ROLE_INFO;
  // One palette command per role (tandem.switchToPlanner, …), and one taking the role id (the status bar's click).
  for (const r of roles.list) reg(`tandem.switchTo${r.label}`, () => switchRole(deps, r.id));
  // With a role id (the status bar's click) that role; without one (its key binding) the next role in order.
  reg('tandem.switchRole', (role) => {
    if (typeof role === 'string' && roles.has(role)) { switchRole(deps, role); return; }
    if (role !== undefined) return;
    const ids = roles.list.map((r) => r.id);
    const current = deps.agent()?.role;
    const next = ids[(ids.indexOf(current ?? ids[0]!) + 1) % ids.length];
    if (next) switchRole(deps, next);
  });
  // The view's own focus command lands on the webview, not in its input: this one puts the cursor there.
  reg('tandem.focusChat', async () => {
    await deps.revealChat();
    deps.postUi({ type: 'focus_input' });
  });
  reg('tandem.stop', () => deps.agent()?.stop());
  reg('tandem.setApiKey', () => deps.keys.prompt());
  reg('tandem.selectModel', () => selectModel(deps, roles));

  reg('tandem.explainSelection', async () => {
    if (refusedAsReadOnly(deps)) return;
    const sel = activeSelection();
    if (!sel) return;
    await deps.revealChat();
    deps.sendPrompt(selectionPrompt('explain', sel));
  });

  reg('tandem.planFromSelection', async () => {
    if (refusedAsReadOnly(deps)) return;
    const sel = activeSelection();
    if (!sel) return;
    const goal = await vscode.window.showInputBox({
      title: 'Tandem: Plan from selection',
      prompt: `What should change in ${sel.path} (lines ${sel.startLine}-${sel.endLine})? Leave empty to ask for improvements.`,
      ignoreFocusOut: true,
    });
    if (goal === undefined) return;
    const agent = deps.agent();
    // Planning is the planning role's job; switching is a user action, and this command is one.
    const planner = roles.planner;
    if (agent && planner && agent.role !== planner.id) agent.setRole(planner.id, 'Plan from selection');
    await deps.revealChat();
    deps.sendPrompt(selectionPrompt('plan', sel, goal));
  });

  // Add Selection to Tandem: a mention of the selected lines goes into the composer, which gets the focus; nothing is sent.
  reg('tandem.addSelection', async () => {
    const editor = vscode.window.activeTextEditor;
    if (!editor) { void vscode.window.showWarningMessage('Tandem: open a file and select some code first.'); return; }
    const mention = selectionMention(editor);
    if (!mention) { void vscode.window.showWarningMessage('Tandem: only files inside the workspace can be added.'); return; }
    await deps.revealChat();
    deps.postUi({ type: 'insert_mention', text: mention });
  });

  if (deps.openHistory) reg('tandem.openHistory', () => deps.openHistory?.());
  if (deps.revertLastChange) reg('tandem.revertLastChange', () => deps.revertLastChange?.());
}

/**
 * A palette command that would act on a task another window took over says so instead: the chat's
 * composer is gone in that window, and the palette must not be a way around it.
 */
function refusedAsReadOnly(deps: CommandDeps): boolean {
  const reason = deps.readOnlyReason?.();
  if (reason === undefined) return false;
  void vscode.window.showWarningMessage(`Tandem: ${reason} Start a new task or resume one to work here.`);
  return true;
}

function switchRole(deps: CommandDeps, role: RoleId): void {
  if (refusedAsReadOnly(deps)) return;
  const agent = deps.agent();
  if (!agent) { void vscode.window.showWarningMessage('Tandem is not set up yet: open the Tandem view to configure an endpoint.'); return; }
  // The user's own switch (palette or shortcut): no note saying why, as for the chat's role control.
  if (agent.role !== role) agent.setRole(role);
}

function activeSelection() {
  const editor = vscode.window.activeTextEditor;
  if (!editor) { void vscode.window.showWarningMessage('Tandem: open a file and select some code first.'); return undefined; }
  const sel = selectionContext(editor);
  if (!sel) void vscode.window.showWarningMessage('Tandem: select the code you mean (the file is too long to send whole).');
  return sel;
}

/** Quick pick of the endpoint's models (from `/models`), per role; an input box when the list fails. */
async function selectModel(deps: CommandDeps, roles: RoleRegistry<RoleInfo>): Promise<void> {
  const settings = readAgentSettings(await deps.keys.get(), undefined, roles);
  const now = (r: RoleInfo) => modelFor(settings, r.id);
  const which = await vscode.window.showQuickPick([
    { label: roles.list.length === 2 ? 'Both roles' : 'All roles', roles: roles.list, description: `now: ${roles.list.map(now).join(' / ')}` },
    ...roles.list.map((r) => ({ label: r.label, roles: [r], description: `now: ${now(r)}` })),
  ], { title: 'Tandem: Select model — for which role?' });
  if (!which) return;

  const listed = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Tandem: listing models at ${settings.baseURL}…` },
    () => listModels(settings.baseURL, settings.apiKey),
  );
  const current = now(which.roles[0]!);
  let model: string | undefined;
  if (listed.ok && listed.models.length) {
    const picked = await vscode.window.showQuickPick(
      listed.models.map((id) => ({ label: id, description: id === current ? 'current' : undefined })),
      { title: `Tandem: model for ${which.label}`, placeHolder: current, matchOnDescription: true },
    );
    model = picked?.label;
  } else {
    model = await vscode.window.showInputBox({
      title: `Tandem: model for ${which.label}`,
      prompt: listed.ok ? 'The endpoint lists no models; type the model name.' : `Could not list models: ${listed.error}. Type the model name.`,
      value: current,
      ignoreFocusOut: true,
    });
  }
  if (!model?.trim()) return;
  const config = vscode.workspace.getConfiguration('tandem');
  for (const r of which.roles) await config.update(r.modelSetting, model.trim(), vscode.ConfigurationTarget.Global);
  deps.logger.info(`model for ${which.roles.map((r) => r.id).join(', ')}: ${model.trim()}`);
}
