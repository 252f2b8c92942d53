import * as fs from 'node:fs';
import * as path from 'node:path';
import type { HostEvent, RoleId } from '../../protocol';
import type { PlanProvenance } from '../plans/planRecord';
import type { Price } from '../cost/priceTable';
import { appendDurable, writeFileAtomic } from '../storage/atomicWrite';
import { HISTORY_FORMAT_VERSION, type LogRecord, type TaskMeta, type TaskSnapshot } from './format';
import { diffCard, TaskState } from './taskState';
import { TaskLock, type TaskLockOptions } from './taskLock';

export interface RecorderOptions {
  /** The task's folder (created if missing). */
  dir: string;
  id: string;
  /** Folded state of a resumed task (already on disk in `gen`). */
  resumed?: { state: TaskState; gen: number };
  workspace?: string;
  /** Plan versions with provenance (the PlanBook's records), persisted once per plan card. */
  planProvenance?: () => readonly { cardId: string; provenance: PlanProvenance }[];
  prices?: () => Record<string, Price> | undefined;
  /** Debounce for ordinary events; turn ends, usage and approvals are written at once. */
  flushDelayMs?: number;
  /** Compact (snapshot + fresh log) once the log is larger than this and than the snapshot. */
  compactBytes?: number;
  now?: () => number;
  /** The task's writer lock (a resumed task's, already held); by default one taken at the first write. */
  lock?: TaskLock;
  /** How a lock made here beats (see taskLock.ts). */
  lockOptions?: TaskLockOptions;
  /** Another window or terminal asked for the task: the host stops it and `close()`s (it is written no more after that). */
  onTakeoverRequested?: () => void;
}

/** The events that change a plan step's state (sent after the plan card's patch that records it). */
const STEP_EVENTS: ReadonlySet<HostEvent['type']> = new Set(['step_started', 'step_done', 'step_failed', 'step_unverified']);

/**
 * Saves a task as it goes. It listens to the same HostEvents the webview gets, folds them, and
 * appends to the task's log only what changed since the last write (a new card whole; later
 * only changed fields; streamed text only by its new suffix). Appends are fsync'd; the meta
 * file and snapshots are replaced atomically. Killing the process loses at most what was not
 * flushed yet: the debounce window of the turn in flight.
 */
export class TaskRecorder {
  readonly state: TaskState;
  private readonly written = new Map<string, import('../../protocol').Card>();
  private readonly writtenProv = new Set<string>();
  private readonly dirty = new Set<string>();
  private metaDirty = false;
  private gen: number;
  private logBytes = 0;
  private snapshotBytes = 0;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private lastWrittenRole: string | undefined;
  private readonly lock: TaskLock;

  /** A new task touches the disk only once it has a card: tasks opened and never used leave nothing behind. */
  private started: boolean;

  constructor(private readonly opts: RecorderOptions) {
    const now = opts.now ?? Date.now;
    this.lock = opts.lock ?? new TaskLock(opts.dir, opts.lockOptions);
    this.lock.onHandover = (lost) => {
      // Taken while this writer's window was away: the other writer owns the log now, so not one more line.
      if (lost) this.abandon();
      opts.onTakeoverRequested?.();
    };
    this.started = Boolean(opts.resumed);
    if (opts.resumed) {
      this.state = opts.resumed.state;
      this.gen = opts.resumed.gen;
      for (const c of this.state.cards()) this.written.set(c.id, c);
      for (const id of this.state.provenance.keys()) this.writtenProv.add(id);
      this.logBytes = fileSize(this.logPath());
      this.snapshotBytes = fileSize(this.snapshotPath());
      this.lastWrittenRole = this.state.role;
    } else {
      this.state = new TaskState();
      this.state.created = now();
      this.state.workspace = opts.workspace;
      this.gen = 0;
      this.lastWrittenRole = this.state.role;
    }
  }

  get id(): string {
    return this.opts.id;
  }

  get dir(): string {
    return this.opts.dir;
  }

  private logPath(gen = this.gen): string {
    return path.join(this.opts.dir, `log-${gen}.jsonl`);
  }

  private snapshotPath(): string {
    return path.join(this.opts.dir, 'snapshot.json');
  }

  /** The role the agent starts in, before any role event says so (a resumed task, or a role other than the first). */
  setRole(role: RoleId): void {
    if (this.closed || role === this.state.role) return;
    this.state.role = role;
    this.metaDirty = true;
    this.schedule();
  }

  /** Feed every HostEvent of the task here (wrap the agent's `emit`). */
  onEvent(e: HostEvent): void {
    if (this.closed) return;
    for (const id of this.state.applyEvent(e)) this.dirty.add(id);
    if (e.type === 'snapshot' && this.started) {
      // A snapshot in a running task rewinds it (Edit & resend drops the cards after a message):
      // the log only adds and patches, so the shorter task is written as a new snapshot.
      this.written.clear();
      this.dirty.clear();
      for (const c of this.state.cards()) this.written.set(c.id, c);
      this.compact();
      return;
    }
    if (e.type === 'role_changed' || e.type === 'snapshot') this.metaDirty = true;
    // A turn's end is written at once (with the meta the History list reads); so is each step's
    // start and end (the plan's node states: a run killed mid-step resumes with the done steps done);
    // anything else within the debounce, so a long turn in flight is mostly kept too, at one fsync per burst of events.
    if (e.type === 'turn_ended' || e.type === 'role_changed') this.flush(true);
    else if (STEP_EVENTS.has(e.type)) this.flush();
    else this.schedule();
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, this.opts.flushDelayMs ?? 500);
    this.timer.unref?.();
  }

  /** Writes what changed since the last flush. Safe to call often; a no-op when nothing changed. */
  flush(withMeta = false): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.closed) return;
    const records: LogRecord[] = [];
    if (this.state.role !== this.lastWrittenRole) {
      records.push({ k: 'meta', m: { role: this.state.role } });
      this.lastWrittenRole = this.state.role;
    }
    for (const id of this.dirty) {
      const card = this.state.byId.get(id);
      if (!card) continue;
      records.push(...diffCard(this.written.get(id), card));
      this.written.set(id, card);
    }
    this.dirty.clear();
    for (const { cardId, provenance } of this.opts.planProvenance?.() ?? []) {
      if (this.writtenProv.has(cardId)) continue;
      this.state.provenance.set(cardId, provenance);
      records.push({ k: 'prov', id: cardId, p: provenance });
      this.writtenProv.add(cardId);
    }
    if (!this.started) {
      if (!records.some((r) => r.k === 'add')) return;
      fs.mkdirSync(this.opts.dir, { recursive: true });
      this.lock.acquire();
      records.unshift({ k: 'meta', m: { created: this.state.created, ...(this.state.workspace ? { workspace: this.state.workspace } : {}), role: this.state.role } });
      this.started = true;
      withMeta = true;
    }
    if (records.length === 0 && !this.metaDirty && !withMeta) return;
    this.append(records);
    if (this.logBytes > Math.max(this.opts.compactBytes ?? 1_000_000, this.snapshotBytes)) this.compact();
    else if (withMeta || this.metaDirty || !this.metaWritten) this.writeMeta();
    this.metaDirty = false;
  }

  private append(records: LogRecord[]): void {
    if (records.length === 0) return;
    const text = records.map((r) => JSON.stringify(r)).join('\n') + '\n';
    appendDurable(this.logPath(), text);
    this.logBytes += Buffer.byteLength(text);
  }

  meta(): TaskMeta {
    const s = this.state;
    return {
      format_version: HISTORY_FORMAT_VERSION,
      id: this.opts.id,
      title: s.title(),
      created: s.created ?? s.firstTs() ?? Date.now(),
      updated: (this.opts.now ?? Date.now)(),
      ...(s.workspace ? { workspace: s.workspace } : {}),
      role: s.role,
      models: s.models(),
      usage: s.usage(this.opts.prices?.()),
      cards: s.order.length,
      bytes: this.logBytes + this.snapshotBytes,
    };
  }

  /** The meta file is rewritten at turn ends, role changes and compactions, not at every debounced flush. */
  private metaWritten = false;

  private writeMeta(): void {
    this.metaWritten = true;
    // Rebuildable from the log (the list falls back to loading the task), so no fsync for it.
    writeFileAtomic(path.join(this.opts.dir, 'meta.json'), JSON.stringify(this.meta()), { durable: false });
  }

  /**
   * Folds the log into a new snapshot (generation g+1) and starts an empty log for it. Crash
   * safe at every point: until the snapshot's rename the old snapshot + old log are whole; after
   * it the new snapshot is whole and the missing/empty new log just means "no records yet".
   */
  compact(): void {
    const next = this.gen + 1;
    const snapshot: TaskSnapshot = {
      format_version: HISTORY_FORMAT_VERSION,
      gen: next,
      cards: this.state.cards(),
      provenance: Object.fromEntries(this.state.provenance),
      meta: this.meta(),
    };
    const text = JSON.stringify(snapshot);
    writeFileAtomic(this.snapshotPath(), text);
    const old = this.logPath();
    this.gen = next;
    this.snapshotBytes = Buffer.byteLength(text);
    this.logBytes = 0;
    fs.rmSync(old, { force: true });
    this.writeMeta();
  }

  /** Stops writing at once, without a last flush (the task belongs to another writer now). */
  private abandon(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.closed = true;
  }

  /** Flushes and, when the log has grown, compacts so the next load reads one file. */
  close(): void {
    if (this.closed) return;
    this.flush(true);
    if (this.started && this.logBytes > 64_000) this.compact();
    this.closed = true;
    this.lock.release();
  }
}

function fileSize(p: string): number {
  try {
    return fs.statSync(p).size;
  } catch {
    return 0;
  }
}
