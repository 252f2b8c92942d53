import * as vscode from 'vscode';
import type { PanelOutbound, Unsubscribe } from '../../protocol';

/**
 * The `tandem.running` context key, true while the agent works: the view's title bar shows Stop
 * only then (a red Stop on an idle chat reads as something to stop). Follows the agent's state
 * events; a snapshot (another task, a reload) is asked about the task now shown.
 */
export function trackRunning(session: { onOutbound(l: (m: PanelOutbound) => void): Unsubscribe; current: { busy: boolean } }): vscode.Disposable {
  let running: boolean | undefined;
  const set = (on: boolean): void => {
    if (on === running) return;
    running = on;
    void vscode.commands.executeCommand('setContext', 'tandem.running', on);
  };
  set(false);
  const sub = session.onOutbound((m) => {
    if (m.type === 'agent_state') set(m.state !== 'idle');
    else if (m.type === 'turn_ended' && m.outcome !== 'waiting') set(false);
    else if (m.type === 'snapshot') set(session.current.busy);
  });
  return { dispose: () => sub.dispose() };
}
