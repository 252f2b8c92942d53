import type { HostEvent } from './events';
import type { RoleId } from './roles';
import type { HostUiMessage, WebviewMessage } from './webviewMessages';

/** Anything the chat view shows: agent deltas and UI plumbing. */
export type PanelOutbound = HostEvent | HostUiMessage;

export interface Unsubscribe { dispose(): void }

/**
 * What the chat view talks to. The panel knows nothing about agents: it validates what the webview
 * sends, hands it to `handle`, and forwards every outbound message it is given. The composition
 * root picks the implementation (the agent-backed `AgentSession` in src/host/vscode/).
 */
export interface ChatSession {
  readonly role: RoleId;
  /** A message from the webview, already validated against `WebviewMessage`. */
  handle(msg: WebviewMessage): void | Promise<void>;
  /** Subscribe to what the webview must see (deltas, snapshots, UI messages). */
  onOutbound(listener: (msg: PanelOutbound) => void): Unsubscribe;
  /** Fires after the role changed (status bar, context keys). */
  onRoleChanged(listener: (role: RoleId) => void): Unsubscribe;
}
