import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Card } from '../../protocol';
import type { PlanProvenance } from '../plans/planRecord';
import { removeStaleTemps } from '../storage/atomicWrite';
import { HISTORY_FORMAT_VERSION, type LogRecord, type TaskMeta, type TaskSnapshot } from './format';
import { TaskRecorder, type RecorderOptions } from './taskRecorder';
import { TaskState } from './taskState';
import { withLegacyNoteKind } from './legacyNotes';
import { lockHolder, requestTakeover, TaskLock, type TaskLockOptions } from './taskLock';

export interface LoadedTask {
  meta: TaskMeta;
  cards: Card[];
  provenance: Record<string, PlanProvenance>;
  state: TaskState;
  gen: number;
  /** Log lines that could not be read (a line cut by a kill is not counted: it is expected). */
  skippedLines: number;
}

export class HistoryError extends Error {}

/** The task is held by another live writer (a window or a terminal): it can be asked to hand it over. */
export class TaskLockedError extends HistoryError {
  constructor(readonly taskId: string, readonly pid: number) {
    super(`Task ${taskId} is open in another Tandem window or terminal (process ${pid}).`);
  }
}

/** No saved task has that id (it was deleted, or its folder is gone). */
export class TaskNotFoundError extends HistoryError {
  constructor(readonly taskId: string, dir: string) {
    super(`No task with id ${taskId} in ${dir}.`);
  }
}

/**
 * All tasks of one workspace, under a storage dir the host chooses (VS Code: the workspace's
 * `storageUri`; CLI: see `cliHistoryDir`). One folder per task: see `format.ts`.
 */
export class HistoryStore {
  /** `lock.presence`: whether someone is still at this host's window (the lock's heartbeat asks it). */
  constructor(readonly dir: string, private readonly lock: TaskLockOptions = {}) {}

  private get tasksDir(): string {
    return path.join(this.dir, 'tasks');
  }

  taskDir(id: string): string {
    if (!/^[A-Za-z0-9._-]+$/.test(id)) throw new HistoryError(`Not a task id: ${id}`);
    return path.join(this.tasksDir, id);
  }

  static newId(now = new Date()): string {
    const p = (n: number, w = 2) => String(n).padStart(w, '0');
    const stamp = `${now.getUTCFullYear()}${p(now.getUTCMonth() + 1)}${p(now.getUTCDate())}-${p(now.getUTCHours())}${p(now.getUTCMinutes())}${p(now.getUTCSeconds())}`;
    return `t${stamp}-${randomBytes(3).toString('hex')}`;
  }

  /** Starts recording a new task. */
  create(opts: Omit<RecorderOptions, 'dir' | 'id' | 'resumed' | 'lock' | 'lockOptions'> & { id?: string } = {}): TaskRecorder {
    const id = opts.id ?? HistoryStore.newId();
    return new TaskRecorder({ ...opts, id, dir: this.taskDir(id), lockOptions: this.lock });
  }

  /** Continues recording an existing task, appending to its log. */
  /**
   * Continues recording an existing task, appending to its log. Held by another live writer, it
   * throws `TaskLockedError`, unless `takeOver`: then that writer is asked to hand it over (it saves
   * and lets go) and the task is loaded as it left it.
   */
  async resume(idOrPrefix: string, opts: Omit<RecorderOptions, 'dir' | 'id' | 'resumed' | 'lock' | 'lockOptions'> & { takeOver?: boolean } = {}): Promise<{ recorder: TaskRecorder; task: LoadedTask }> {
    const id = await this.resolveId(idOrPrefix);
    const dir = this.taskDir(id);
    if (opts.takeOver) await requestTakeover(dir).catch((e: unknown) => { throw new HistoryError(`Could not take task ${id} over: ${e instanceof Error ? e.message : String(e)}.`); });
    const lock = new TaskLock(dir, this.lock);
    const holder = lock.acquire();
    if (holder !== undefined) throw new TaskLockedError(id, holder);
    try {
      const task = await this.load(id);
      const { takeOver: _, ...rest } = opts;
      const recorder = new TaskRecorder({ ...rest, id: task.meta.id, dir, resumed: { state: task.state, gen: task.gen }, lock });
      return { recorder, task };
    } catch (e) {
      lock.release();
      throw e;
    }
  }

  /** Full id from a unique prefix (users type the first few characters). */
  async resolveId(idOrPrefix: string): Promise<string> {
    const ids = this.ids();
    if (ids.includes(idOrPrefix)) return idOrPrefix;
    const hits = ids.filter((i) => i.startsWith(idOrPrefix));
    if (hits.length === 1) return hits[0];
    if (hits.length === 0) throw new TaskNotFoundError(idOrPrefix, this.dir);
    throw new HistoryError(`Task id ${idOrPrefix} is ambiguous: ${hits.slice(0, 5).join(', ')}${hits.length > 5 ? ', …' : ''}.`);
  }

  private ids(): string[] {
    try {
      return fs.readdirSync(this.tasksDir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
    } catch {
      return [];
    }
  }

  /** Every task, newest first. A task whose meta file is missing is read in full instead. */
  async list(): Promise<TaskMeta[]> {
    const out: TaskMeta[] = [];
    for (const id of this.ids()) {
      try {
        const meta = JSON.parse(fs.readFileSync(path.join(this.tasksDir, id, 'meta.json'), 'utf8')) as TaskMeta;
        out.push({ ...meta, bytes: dirBytes(path.join(this.tasksDir, id)) });
      } catch {
        try {
          out.push((await this.load(id)).meta);
        } catch {
          /* not a task folder */
        }
      }
    }
    return out.sort((a, b) => b.updated - a.updated);
  }

  /** Reads a task (read-only): snapshot, then the log records after it. */
  async load(idOrPrefix: string): Promise<LoadedTask> {
    const id = await this.resolveId(idOrPrefix);
    const dir = this.taskDir(id);
    removeStaleTemps(dir);
    const state = new TaskState();
    let gen = 0;
    let snapMeta: TaskMeta | undefined;
    const snapPath = path.join(dir, 'snapshot.json');
    if (fs.existsSync(snapPath)) {
      const snap = JSON.parse(fs.readFileSync(snapPath, 'utf8')) as TaskSnapshot;
      if (snap.format_version > HISTORY_FORMAT_VERSION) {
        throw new HistoryError(`Task ${id} was saved by a newer Tandem (format ${snap.format_version}); update Tandem to open it.`);
      }
      gen = snap.gen;
      for (const c of snap.cards) state.upsert(withLegacyNoteKind(c));
      for (const [k, v] of Object.entries(snap.provenance ?? {})) state.provenance.set(k, v);
      snapMeta = snap.meta;
      state.role = snap.meta.role;
      state.workspace = snap.meta.workspace;
      state.created = snap.meta.created;
    }
    let skipped = 0;
    const logPath = path.join(dir, `log-${gen}.jsonl`);
    if (fs.existsSync(logPath)) {
      const text = fs.readFileSync(logPath, 'utf8');
      const lines = text.split('\n');
      // The last element is '' after a complete final line; anything else there is a line cut by a kill.
      const last = lines.length - 1;
      for (let i = 0; i < lines.length; i++) {
        const line = lines[i];
        if (!line) continue;
        try {
          state.applyRecord(JSON.parse(line) as LogRecord);
        } catch {
          if (i !== last) skipped++;
        }
      }
    }
    let metaFile: Partial<TaskMeta> = {};
    try {
      metaFile = JSON.parse(fs.readFileSync(path.join(dir, 'meta.json'), 'utf8')) as TaskMeta;
    } catch {
      /* derived below */
    }
    const cards = state.cards();
    const meta: TaskMeta = {
      format_version: HISTORY_FORMAT_VERSION,
      id,
      title: state.title(),
      created: state.created ?? state.firstTs() ?? metaFile.created ?? 0,
      updated: Math.max(metaFile.updated ?? 0, snapMeta?.updated ?? 0, cards.length ? cards[cards.length - 1].ts : 0),
      ...(state.workspace ? { workspace: state.workspace } : {}),
      role: state.role,
      models: state.models(),
      usage: state.usage(),
      cards: cards.length,
      bytes: dirBytes(dir),
    };
    return { meta, cards, provenance: Object.fromEntries(state.provenance), state, gen, skippedLines: skipped };
  }

  async delete(idOrPrefix: string): Promise<string> {
    const id = await this.resolveId(idOrPrefix);
    const holder = lockHolder(this.taskDir(id));
    if (holder !== undefined) throw new HistoryError(`Task ${id} is open in another Tandem window or terminal (process ${holder}); close it there before deleting it.`);
    fs.rmSync(this.taskDir(id), { recursive: true, force: true });
    return id;
  }
}

function dirBytes(dir: string): number {
  let n = 0;
  let entries: fs.Dirent[] = [];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) n += dirBytes(p);
    else {
      try {
        n += fs.statSync(p).size;
      } catch {
        /* vanished */
      }
    }
  }
  return n;
}
