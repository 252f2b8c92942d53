import * as vscode from 'vscode';
import type { RoleId } from '../../protocol';

const LOOK: Record<RoleId, { text: string; tooltip: string; next: string }> = {
  planner: { text: '$(telescope) Tandem: Planner', tooltip: 'Tandem is planning (read-only). Click to switch to the Actor.', next: 'tandem.switchToActor' },
  actor: { text: '$(tools) Tandem: Actor', tooltip: 'Tandem can act (edits and commands, each approved). Click to switch to the Planner.', next: 'tandem.switchToPlanner' },
};

/** The role in force, always visible; a click switches to the other role (a user action). */
export class RoleStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('tandem.role', vscode.StatusBarAlignment.Left, 50);

  constructor(role: RoleId) {
    this.item.name = 'Tandem Role';
    this.show(role);
    this.item.show();
  }

  show(role: RoleId): void {
    const look = LOOK[role];
    this.item.text = look.text;
    this.item.tooltip = look.tooltip;
    this.item.command = look.next;
    this.item.backgroundColor = role === 'actor' ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
  }

  dispose(): void { this.item.dispose(); }
}
