import * as vscode from 'vscode';
import type { HostEvent, PanelOutbound } from '../../protocol';

export interface AttentionDeps {
  /** The chat view, when it has been resolved (its visibility and its badge). */
  view(): vscode.WebviewView | undefined;
  /** Brings the chat into view and focus. */
  reveal(): Promise<void>;
  approve(callId: string): boolean;
  reject(callId: string): boolean;
}

/**
 * Never miss an approval or a finished run: when one comes while the Tandem view is hidden or the
 * window is not focused, a notification says so (Approve / Reject for a plain approval, Open for
 * the rest) and the view's icon gets a badge until the view is seen. `tandem.notify.notifications`
 * and `tandem.notify.badge` turn each off.
 */
export class AttentionNotifier implements vscode.Disposable {
  private waiting = 0;
  /** Tool cards by id: their approval arrives in a patch, which names the card, not the call. */
  private readonly calls = new Map<string, { callId: string; title: string }>();
  private readonly subs: vscode.Disposable[] = [];

  constructor(private readonly deps: AttentionDeps) {
    this.subs.push(vscode.window.onDidChangeWindowState((s) => { if (s.focused && this.seen()) this.clear(); }));
  }

  /** The view was (re)resolved: clear the badge when it becomes visible. */
  watch(view: vscode.WebviewView): void {
    this.subs.push(view.onDidChangeVisibility(() => { if (this.seen()) this.clear(); }));
  }

  private seen(): boolean {
    return Boolean(this.deps.view()?.visible) && vscode.window.state.focused;
  }

  private setting(name: 'notifications' | 'badge'): boolean {
    return vscode.workspace.getConfiguration('tandem.notify').get<boolean>(name, true);
  }

  /** Every message the session sends the chat. */
  onOutbound(msg: PanelOutbound): void {
    const e = msg as HostEvent;
    if (e.type === 'snapshot') this.calls.clear();
    if (e.type === 'card_added' && e.card.kind === 'tool_call') this.calls.set(e.card.id, { callId: e.card.call_id, title: e.card.summary });
    const approval = e.type === 'card_patched' ? (e.patch as { approval?: { kind?: string; command?: string } }).approval : undefined;
    const call = e.type === 'card_patched' ? this.calls.get(e.id) : undefined;
    if (approval && call) {
      // A command (or an MCP call) can be decided from the notification; an edit wants its diff seen first.
      const plain = approval.kind === 'command' || approval.kind === 'mcp';
      this.attend(`Tandem waits for your approval: ${approval.command ?? call.title}`, plain ? call.callId : undefined, call.callId);
    } else if (e.type === 'card_added' && e.card.kind === 'question') {
      this.attend(`Tandem asks: ${e.card.question.question}`);
    } else if (e.type === 'turn_ended' && (e.outcome === 'done' || e.outcome === 'error' || e.outcome === 'limit')) {
      this.attend(e.outcome === 'done' ? 'Tandem finished the run.' : e.outcome === 'limit' ? 'Tandem stopped at the tool-call limit.' : 'Tandem\'s run ended with an error.', undefined, undefined, true);
    }
  }

  /**
   * `plain`: an approval that can be decided from the notification (no diff to look at first).
   * `ended`: a run's end, news that is old once the view is seen (see `showRunEnd`).
   */
  private attend(text: string, plain?: string, callId?: string, ended?: boolean): void {
    if (this.seen()) return;
    if (this.setting('badge')) {
      const view = this.deps.view();
      if (view) view.badge = { value: ++this.waiting, tooltip: text };
    }
    if (!this.setting('notifications')) return;
    if (ended) return this.showRunEnd(text);
    const buttons = plain ? ['Approve', 'Reject', 'Open'] : ['Open'];
    void vscode.window.showInformationMessage(text, ...buttons).then((pick) => {
      if (pick === 'Approve' && plain) this.deps.approve(plain);
      else if (pick === 'Reject' && plain) this.deps.reject(plain);
      else if (pick === 'Open') void this.deps.reveal();
      if (pick && callId !== undefined) this.clear();
    });
  }

  /** Ends the run-end notification (see `showRunEnd`), if one is shown. */
  private endRunNotice: (() => void) | undefined;

  /**
   * A run's end as a notification that goes away once the user has seen the view. A message
   * (showInformationMessage) cannot be taken back by an extension and stayed in the notification
   * centre after the run was read; a notification "with progress" is removed when its task ends,
   * so the task here is "until the view is seen" (or a newer end replaces it). Its bar is shown
   * full: the run is over.
   */
  private showRunEnd(text: string): void {
    this.endRunNotice?.();
    let end!: () => void;
    const seen = new Promise<void>((resolve) => { end = () => { if (this.endRunNotice === end) this.endRunNotice = undefined; resolve(); }; });
    this.endRunNotice = end;
    // The workbench shows "title: message".
    void vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: text.replace(/\.$/, ''), cancellable: false }, (progress) => {
      progress.report({ increment: 100, message: 'see the Tandem view.' });
      return seen;
    });
  }

  private clear(): void {
    this.endRunNotice?.();
    this.waiting = 0;
    const view = this.deps.view();
    if (view) view.badge = undefined;
  }

  dispose(): void {
    this.endRunNotice?.();
    for (const s of this.subs) s.dispose();
  }
}
