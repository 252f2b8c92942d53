import * as vscode from 'vscode';
import { existsSync } from 'node:fs';
import type { ChatSession, HostUiMessage, Unsubscribe, WebviewMessage } from '../protocol';
import type { Logger } from '../core/ports/ports';
import { chatHtml, makeNonce } from './html';
import { MessageBridge } from './messageBridge';

/**
 * The Tandem chat in the activity bar. The page is rebuilt each time the view is resolved (it is not
 * kept alive while hidden); the webview then sends `ready` and the session answers with a snapshot,
 * so nothing is lost while the view was closed.
 */
export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  static readonly viewType = 'tandem.chat';

  private view: vscode.WebviewView | undefined;
  private readonly pendingUi: HostUiMessage[] = [];
  private bridge: MessageBridge | undefined;
  private readonly subscriptions: (vscode.Disposable | Unsubscribe)[] = [];
  private readonly resolvedEmitter = new vscode.EventEmitter<vscode.WebviewView>();
  /** Fires each time the view's page is (re)built; tests and the composition root listen. */
  readonly onDidResolve = this.resolvedEmitter.event;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly session: ChatSession,
    private readonly log: Logger,
    /** Where validated webview messages go; by default all to the session. */
    private readonly dispatch: (msg: WebviewMessage) => void | Promise<void> = (msg) => session.handle(msg),
  ) {
    this.subscriptions.push(session.onOutbound((msg) => this.bridge?.post(msg)));
  }

  get isResolved(): boolean { return this.view !== undefined; }
  /** The view as resolved now (its visibility, its badge), if it has been. */
  get currentView(): vscode.WebviewView | undefined { return this.view; }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.bridge?.dispose();
    this.view = view;
    const dist = vscode.Uri.joinPath(this.extensionUri, 'dist');
    const media = vscode.Uri.joinPath(this.extensionUri, 'media');
    view.webview.options = { enableScripts: true, enableCommandUris: false, localResourceRoots: [dist, media] };
    const bridge = new MessageBridge({ post: (batch) => view.webview.postMessage(batch) }, (m) => this.dispatch(m), this.log,
      (why) => void vscode.window.showWarningMessage(`Tandem could not accept what the chat sent (${why}), so nothing was done. Details are in the Tandem output.`));
    this.bridge = bridge;
    const listener = view.webview.onDidReceiveMessage((raw: unknown) => bridge.receive(raw));
    view.onDidDispose(() => {
      listener.dispose();
      bridge.dispose();
      if (this.bridge === bridge) { this.bridge = undefined; this.view = undefined; }
    });
    view.webview.html = this.html(view.webview, dist);
    for (const msg of this.pendingUi.splice(0)) bridge.post(msg);
    this.resolvedEmitter.fire(view);
  }

  /**
   * Something waits on the user (an approval, a question): a chat in view comes forward; a hidden one
   * stays hidden — the user went elsewhere on purpose, and the badge and the notification tell them.
   */
  async showIfVisible(): Promise<void> {
    if (this.view?.visible) this.view.show(true);
  }

  /** Brings the chat into view (and focus), e.g. when something waits on the user. */
  async reveal(preserveFocus = true): Promise<void> {
    if (this.view) { this.view.show(preserveFocus); return; }
    await vscode.commands.executeCommand(`${ChatViewProvider.viewType}.focus`);
  }

  /**
   * A UI message (focus input, prefill, setup card) for the page. Kept until the page exists when
   * the view has not been opened yet (e.g. "Explain selection" run before the chat was ever shown).
   */
  postUi(msg: HostUiMessage): void {
    if (this.bridge) this.bridge.post(msg);
    else this.pendingUi.push(msg);
  }

  private html(webview: vscode.Webview, dist: vscode.Uri): string {
    const css = vscode.Uri.joinPath(dist, 'webview.css');
    return chatHtml({
      cspSource: webview.cspSource,
      nonce: makeNonce(),
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.js')).toString(),
      // The bundle has a stylesheet only when the UI imports CSS; don't link a 404.
      styleUris: existsSync(css.fsPath) ? [webview.asWebviewUri(css).toString()] : [],
    });
  }

  dispose(): void {
    this.bridge?.dispose();
    this.resolvedEmitter.dispose();
    for (const s of this.subscriptions) s.dispose();
  }
}
