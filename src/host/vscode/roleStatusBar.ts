import * as vscode from 'vscode';
import { PRODUCT_ROLE_INFO, roleAccess, type RoleId, type RoleInfo, type RoleRegistry } from '../../protocol';

/** The role in force, always visible; a click switches to the next role of the table (a user action). */
export class RoleStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('tandem.role', vscode.StatusBarAlignment.Left, 50);

  constructor(role: RoleId, private readonly roles: RoleRegistry<RoleInfo> = PRODUCT_ROLE_INFO) {
    this.item.name = 'Tandem Role';
    this.show(role);
    this.item.show();
  }

  show(role: RoleId): void {
    const r = this.roles.find(role) ?? this.roles.initial;
    const next = this.roles.next(r.id);
    this.item.text = `$(${r.icon}) Tandem: ${r.label}`;
    this.item.tooltip = `Tandem: ${r.label} (${roleAccess(r)}). Click to switch to the ${next.label}.`;
    this.item.command = { command: 'tandem.switchRole', title: `Switch to the ${next.label}`, arguments: [next.id] };
    // A role that can change things is coloured as a warning, like the chat's role control.
    this.item.backgroundColor = r.tone === 'warning' ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
  }

  dispose(): void { this.item.dispose(); }
}
