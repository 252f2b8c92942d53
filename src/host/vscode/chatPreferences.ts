import * as vscode from 'vscode';
import type { RoleId, RoleInfo, RoleRegistry } from '../../protocol';
import { SETTING } from './settings';

/**
 * What the chat changes in the user's settings from its cards and header: the command allow-list
 * (Always allow, and taking an entry back) and a role's model (the model picker). User settings:
 * they follow the user, not the repository (a repository must not widen what runs unasked).
 */
function config(): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration('tandem');
}

export function allowedCommands(): string[] {
  const v = config().get<unknown>(SETTING.commandAllowList);
  return Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string' && s.trim() !== '') : [];
}

/** Adds `entries` (those not there yet) to the user's allow-list; returns the list in force. */
export async function allowCommands(entries: readonly string[]): Promise<string[]> {
  const now = allowedCommands();
  const added = entries.filter((e) => !now.includes(e));
  if (added.length > 0) await config().update(SETTING.commandAllowList, [...userAllowList(), ...added], vscode.ConfigurationTarget.Global);
  return allowedCommands();
}

/** Takes `entry` out of the user's allow-list; returns the list in force. */
export async function disallowCommand(entry: string): Promise<string[]> {
  const mine = userAllowList();
  if (mine.includes(entry)) await config().update(SETTING.commandAllowList, mine.filter((e) => e !== entry), vscode.ConfigurationTarget.Global);
  return allowedCommands();
}

/** The user-level list alone (the one these functions write). */
function userAllowList(): string[] {
  const v = config().inspect<unknown>(SETTING.commandAllowList)?.globalValue;
  return Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : [];
}

/** The model picker: `role`'s model setting (only a role of the registry: the webview picks no setting key). */
export async function setRoleModel(role: RoleId, model: string, roles: RoleRegistry<RoleInfo>): Promise<boolean> {
  const def = roles.find(role);
  if (!def) return false;
  await config().update(def.modelSetting, model.trim(), vscode.ConfigurationTarget.Global);
  return true;
}
