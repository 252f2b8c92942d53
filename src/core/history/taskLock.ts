import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * One writer per task: an editor window and a terminal (or two windows) appending to the same log
 * would interleave two diverging stories, and one's compaction would drop the other's records.
 *
 * The lock is a file naming the writer (pid and a token) and the time of its last heartbeat. A pid
 * alone is not enough: code-server keeps a closed browser tab's extension host alive for hours,
 * so the pid of a window nobody can see any more stays alive. The holder beats only while its host
 * says someone is there (`presence`: in the editor, a round trip to the window), so a lock whose
 * beat is older than `LOCK_STALE_MS` is provably stale and taken over without asking.
 *
 * A live holder can be asked to hand the task over: the asker writes a takeover request, the holder
 * sees it at its next beat, stops and saves its task and releases the lock (its view turns
 * read-only), and the asker takes it. Same-machine only, which is where the history lives.
 */
const LOCK = 'writer.lock';
const TAKEOVER = 'takeover.request';

/** How often a holder beats (and looks for a takeover request). */
export const LOCK_BEAT_MS = 2_000;
/** A beat older than this: the holder is gone or nobody is at its window any more. */
export const LOCK_STALE_MS = 10_000;

interface LockRecord { pid: number; token?: string; beat?: number }

/** Whether process `pid` is running (EPERM: running, someone else's); also what tells a step folder's owner gone (host/node/stepFolderBase.ts). */
export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readLock(dir: string): LockRecord | undefined {
  let text: string;
  try {
    text = fs.readFileSync(path.join(dir, LOCK), 'utf8').trim();
  } catch {
    return undefined;
  }
  // Older versions wrote the bare pid (no beat: judged by the pid alone).
  if (/^\d+$/.test(text)) return { pid: Number(text) };
  try {
    const r = JSON.parse(text) as Partial<LockRecord>;
    return typeof r.pid === 'number' ? { pid: r.pid, ...(typeof r.token === 'string' ? { token: r.token } : {}), ...(typeof r.beat === 'number' ? { beat: r.beat } : {}) } : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `r` is held by a live writer other than the one with `token` (any writer when none is given). */
function heldByOther(r: LockRecord | undefined, token: string | undefined, now: number): boolean {
  if (!r || (token !== undefined && r.token === token)) return false;
  if (!processAlive(r.pid)) return false;
  return r.beat === undefined || now - r.beat < LOCK_STALE_MS;
}

/** The pid holding the task, if a live writer does (a stale heartbeat does not count). */
export function lockHolder(dir: string, now = Date.now()): number | undefined {
  const r = readLock(dir);
  return heldByOther(r, undefined, now) ? r!.pid : undefined;
}

export interface TaskLockOptions {
  /**
   * Whether someone is still at this writer's window (the editor: the window answers a round trip).
   * A beat is written only when it says yes; without it every tick beats (the CLI, tests).
   */
  presence?: () => Promise<boolean>;
}

/** This writer's hold on one task folder, with its heartbeat. */
export class TaskLock {
  private readonly token = `${process.pid}-${randomBytes(4).toString('hex')}`;
  private timer: ReturnType<typeof setInterval> | undefined;
  private probing = false;
  private handedOver = false;
  /**
   * Another writer wants the task. `lost`: it already took it (this writer's beat had gone stale),
   * so nothing more may be written; otherwise stop, save, and `release()`.
   */
  onHandover: ((lost: boolean) => void) | undefined;

  constructor(private readonly dir: string, private readonly opts: TaskLockOptions = {}) {}

  get held(): boolean { return this.timer !== undefined; }

  /** Takes the task; returns the other live holder's pid instead when there is one. */
  acquire(): number | undefined {
    if (this.held) return undefined;
    const r = readLock(this.dir);
    if (heldByOther(r, this.token, Date.now())) return r!.pid;
    fs.mkdirSync(this.dir, { recursive: true });
    this.write();
    fs.rmSync(path.join(this.dir, TAKEOVER), { force: true });
    this.timer = setInterval(() => this.tick(), LOCK_BEAT_MS);
    this.timer.unref?.();
    return undefined;
  }

  private write(): void {
    const rec: LockRecord = { pid: process.pid, token: this.token, beat: Date.now() };
    const tmp = path.join(this.dir, `${LOCK}.${this.token}.tmp`);
    fs.writeFileSync(tmp, JSON.stringify(rec));
    fs.renameSync(tmp, path.join(this.dir, LOCK));
  }

  private tick(): void {
    if (!this.held) return;
    const r = readLock(this.dir);
    const lost = r?.token !== this.token;
    if (lost || fs.existsSync(path.join(this.dir, TAKEOVER))) {
      if (!this.handedOver) {
        this.handedOver = true;
        if (lost && this.timer) { clearInterval(this.timer); this.timer = undefined; }
        this.onHandover?.(lost);
      }
      return;
    }
    if (!this.opts.presence) { this.write(); return; }
    if (this.probing) return;
    this.probing = true;
    // A window that went away never answers: no beat, and the lock goes stale.
    let settled = false;
    const done = (here: boolean) => {
      if (settled) return;
      settled = true;
      this.probing = false;
      if (here && this.held && !this.handedOver) { try { this.write(); } catch { /* folder gone: nothing to hold */ } }
    };
    const timeout = setTimeout(() => done(false), LOCK_BEAT_MS);
    timeout.unref?.();
    this.opts.presence().then((here) => { clearTimeout(timeout); done(here); }, () => { clearTimeout(timeout); done(false); });
  }

  /** Lets the task go (only if this writer still holds it). */
  release(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (readLock(this.dir)?.token === this.token) fs.rmSync(path.join(this.dir, LOCK), { force: true });
  }
}

/**
 * Asks the live holder of `dir` to hand the task over and waits until it has (or its heartbeat went
 * stale). Resolves when the task is free; rejects when the holder neither answered nor went quiet.
 */
export async function requestTakeover(dir: string, opts: { timeoutMs?: number; pollMs?: number } = {}): Promise<void> {
  if (lockHolder(dir) === undefined) return;
  fs.writeFileSync(path.join(dir, TAKEOVER), JSON.stringify({ pid: process.pid, at: Date.now() }));
  const deadline = Date.now() + (opts.timeoutMs ?? LOCK_STALE_MS + 2 * LOCK_BEAT_MS);
  while (lockHolder(dir) !== undefined) {
    if (Date.now() > deadline) {
      fs.rmSync(path.join(dir, TAKEOVER), { force: true });
      throw new Error('the other window did not hand the task over');
    }
    await new Promise((r) => setTimeout(r, opts.pollMs ?? 200));
  }
}
