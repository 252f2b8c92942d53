import { WebviewMessage, type PanelOutbound } from '../protocol';
import type { Logger } from '../core/ports/ports';

/** One animation frame: outbound messages are coalesced so a burst of deltas costs one post. */
export const FRAME_MS = 16;
/** At most one "not done" notice to the user per this many ms. */
export const DROP_NOTICE_MS = 10_000;

export interface BridgeTarget {
  /** Posts one batch (an array: the webview accepts a single message or an array). */
  post(batch: PanelOutbound[]): Thenable<boolean> | Promise<boolean> | void;
}

type Thenable<T> = PromiseLike<T>;

/**
 * The host side of the webview channel. Inbound: the webview is untrusted, so every message is
 * parsed with `WebviewMessage`; what does not parse is logged (type and first issue only, never the
 * payload, which may hold a key) and dropped, and the user is told (see `onDropped`): a click that
 * did nothing, with the reason only in the log, reads as a broken button. Outbound: queued and
 * flushed once per frame, in order.
 */
export class MessageBridge {
  private queue: PanelOutbound[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;
  private dropped = 0;

  constructor(
    private readonly target: BridgeTarget,
    private readonly onMessage: (msg: WebviewMessage) => void | Promise<void>,
    private readonly log: Logger,
    /** Told, at most once per `DROP_NOTICE_MS`, why a message was not taken (never its payload). */
    private readonly onDropped?: (why: string) => void,
  ) {}
  private lastNotice = -Infinity;

  /** Raw data from `webview.onDidReceiveMessage`. Returns whether it was accepted. */
  receive(raw: unknown): boolean {
    const parsed = WebviewMessage.safeParse(raw);
    if (!parsed.success) {
      this.dropped++;
      const type = raw && typeof raw === 'object' && typeof (raw as { type?: unknown }).type === 'string' ? (raw as { type: string }).type : typeof raw;
      const issue = parsed.error.issues[0];
      // Bounded: for an unknown type the message lists every valid one, and a log line stays short.
      const why = `type ${JSON.stringify(type).slice(0, 60)}; ${issue ? `${issue.path.join('.').slice(0, 60) || '(root)'}: ${issue.message.slice(0, 200)}` : 'unparsable'}`;
      this.log.warn(`webview: dropped invalid message (${why})`);
      // Rate-limited: the webview is untrusted and must not be able to flood the user with notices.
      const now = Date.now();
      if (this.onDropped && now - this.lastNotice >= DROP_NOTICE_MS) {
        this.lastNotice = now;
        this.onDropped(why);
      }
      return false;
    }
    Promise.resolve()
      .then(() => this.onMessage(parsed.data))
      .catch((e: unknown) => this.log.error(`webview: handling "${parsed.data.type}" failed: ${e instanceof Error ? e.stack ?? e.message : String(e)}`));
    return true;
  }

  /** Queue for the next frame. */
  post(msg: PanelOutbound): void {
    if (this.disposed) return;
    this.queue.push(msg);
    this.timer ??= setTimeout(() => this.flush(), FRAME_MS);
  }

  /** Sends what is queued now (also used on dispose so nothing is lost mid-frame). */
  flush(): void {
    if (this.timer !== undefined) { clearTimeout(this.timer); this.timer = undefined; }
    if (this.queue.length === 0 || this.disposed) return;
    const batch = this.queue;
    this.queue = [];
    try {
      const r = this.target.post(batch);
      if (r && typeof (r as PromiseLike<boolean>).then === 'function') {
        (r as PromiseLike<boolean>).then(undefined, (e: unknown) => this.log.warn(`webview: post failed: ${String(e)}`));
      }
    } catch (e) {
      this.log.warn(`webview: post failed: ${String(e)}`);
    }
  }

  get droppedCount(): number { return this.dropped; }

  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.queue = [];
    this.disposed = true;
  }
}
