import * as fs from 'node:fs';
import * as path from 'node:path';
import { createHash } from 'node:crypto';
import { createTwoFilesPatch } from 'diff';
import type { WorkspaceFs } from '../ports/ports';
import { appendDurable, writeFileAtomic } from '../storage/atomicWrite';

/**
 * Pre-images of the files the agent changes, so any tool call or the whole task can be undone.
 * Only touched files are kept, with a cap: a shadow git of the whole workspace would copy a large
 * repository on every task and slow every change.
 *
 * On disk, in the task's `checkpoints/` folder: `entries.jsonl` (append-only records) and
 * `blobs/<sha256>` (file contents, stored once however many entries share them). The agent's
 * version of each file after its change (the post-image) is kept too: it is how a revert knows
 * the user has edited the file since, and what the "show diff" offer shows.
 */
export interface CheckpointLimits {
  /** A file bigger than this is not kept; its change is marked not revertible. */
  maxFileBytes: number;
  /** All the blobs of one task together. */
  maxTaskBytes: number;
}

export const DEFAULT_CHECKPOINT_LIMITS: CheckpointLimits = { maxFileBytes: 2 * 1024 * 1024, maxTaskBytes: 64 * 1024 * 1024 };

export interface FileImage {
  exists: boolean;
  hash?: string;
  size?: number;
  /** The content is in blobs/ (false when it was over a cap). */
  kept?: boolean;
}

export interface CheckpointEntry {
  seq: number;
  callId: string;
  /** Absolute real path. */
  path: string;
  /** Workspace-relative path for messages. */
  display: string;
  pre: FileImage;
  post?: FileImage;
  revertible: boolean;
  /** Why not revertible. */
  note?: string;
  reverted?: number;
  ts: number;
}

type Record_ =
  | { k: 'pre'; e: CheckpointEntry }
  | { k: 'post'; seq: number; post: FileImage; note?: string; revertible?: boolean }
  | { k: 'drop'; seq: number }
  | { k: 'reverted'; seqs: number[]; at: number };

export interface RevertConflict {
  path: string;
  reason: string;
  /** Unified diff from the agent's version to what is there now. */
  diff?: string;
}

export type RevertResult =
  | { ok: true; files: { path: string; action: 'restored' | 'deleted' | 'recreated' }[]; message: string }
  | { ok: false; message: string; conflicts: RevertConflict[] };

const sha = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

/** Text that came from a binary file cannot be written back faithfully. */
function looksBinary(text: string): boolean {
  return text.includes('\u0000') || text.includes('\uFFFD');
}

const mb = (n: number) => (n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(n / 1024)} KB`);

export class CheckpointStore {
  private readonly list: CheckpointEntry[] = [];
  private readonly byCallPath = new Map<string, CheckpointEntry>();
  private blobBytes = 0;
  private nextSeq = 1;
  /** Post-image work in flight; a new change waits for it so images stay in order. */
  private pending: Promise<unknown> = Promise.resolve();

  constructor(
    readonly dir: string,
    private readonly fs: WorkspaceFs,
    private readonly limits: CheckpointLimits = DEFAULT_CHECKPOINT_LIMITS,
    private readonly now: () => number = Date.now,
  ) {
    this.load();
  }

  private get entriesPath(): string {
    return path.join(this.dir, 'entries.jsonl');
  }

  private blobPath(hash: string): string {
    return path.join(this.dir, 'blobs', hash);
  }

  private load(): void {
    let text = '';
    try {
      text = fs.readFileSync(this.entriesPath, 'utf8');
    } catch {
      return;
    }
    const bySeq = new Map<number, CheckpointEntry>();
    for (const line of text.split('\n')) {
      if (!line) continue;
      let r: Record_;
      try {
        r = JSON.parse(line) as Record_;
      } catch {
        continue; // a line cut by a kill
      }
      if (r.k === 'pre') bySeq.set(r.e.seq, r.e);
      else if (r.k === 'post') {
        const e = bySeq.get(r.seq);
        if (e) Object.assign(e, { post: r.post }, r.note ? { note: r.note } : {}, r.revertible === false ? { revertible: false } : {});
      } else if (r.k === 'drop') bySeq.delete(r.seq);
      else if (r.k === 'reverted') for (const s of r.seqs) { const e = bySeq.get(s); if (e) e.reverted = r.at; }
    }
    for (const e of [...bySeq.values()].sort((a, b) => a.seq - b.seq)) {
      this.list.push(e);
      this.byCallPath.set(`${e.callId}\u0000${e.path}`, e);
      this.nextSeq = Math.max(this.nextSeq, e.seq + 1);
    }
    try {
      for (const b of fs.readdirSync(path.join(this.dir, 'blobs'))) this.blobBytes += fs.statSync(this.blobPath(b)).size;
    } catch {
      /* no blobs yet */
    }
  }

  private record(r: Record_): void {
    fs.mkdirSync(this.dir, { recursive: true });
    appendDurable(this.entriesPath, JSON.stringify(r) + '\n');
  }

  private display(absPath: string): string {
    for (const root of this.fs.roots) {
      const rel = path.relative(root, absPath);
      if (rel && !rel.startsWith('..') && !path.isAbsolute(rel)) return rel.split(path.sep).join('/');
    }
    return absPath;
  }

  /** Reads a file's current image and keeps its content when within the caps. */
  private async image(absPath: string): Promise<{ image: FileImage; text?: string; note?: string }> {
    const st = await this.fs.stat(absPath);
    if (!st) return { image: { exists: false } };
    if (st.type !== 'file') return { image: { exists: true, size: st.size, kept: false }, note: `${this.display(absPath)} is not a regular file, so it was not kept` };
    if (st.size > this.limits.maxFileBytes) {
      return { image: { exists: true, size: st.size, kept: false }, note: `${this.display(absPath)} is ${mb(st.size)}, over the ${mb(this.limits.maxFileBytes)} checkpoint cap per file, so it was not kept` };
    }
    const text = await this.fs.readText(absPath);
    const hash = sha(text);
    if (looksBinary(text)) return { image: { exists: true, hash, size: st.size, kept: false }, note: `${this.display(absPath)} looks binary, so its content was not kept` };
    const file = this.blobPath(hash);
    if (fs.existsSync(file)) return { image: { exists: true, hash, size: st.size, kept: true }, text };
    const bytes = Buffer.byteLength(text);
    if (this.blobBytes + bytes > this.limits.maxTaskBytes) {
      return { image: { exists: true, hash, size: st.size, kept: false }, note: `this task's checkpoints reached their ${mb(this.limits.maxTaskBytes)} cap, so ${this.display(absPath)} was not kept`, text };
    }
    fs.mkdirSync(path.dirname(file), { recursive: true });
    writeFileAtomic(file, text);
    this.blobBytes += bytes;
    return { image: { exists: true, hash, size: st.size, kept: true }, text };
  }

  /**
   * The `beforeChange` hook: called by a tool before it changes, creates or deletes `absPath`.
   * Returns a note when the change will not be revertible (the change itself goes ahead; it still
   * needs the user's approval like any other).
   */
  async beforeChange(absPath: string, callId: string): Promise<string | undefined> {
    await this.pending;
    const key = `${callId}\u0000${absPath}`;
    const seen = this.byCallPath.get(key);
    if (seen) return seen.revertible ? undefined : seen.note;
    const { image, note } = await this.image(absPath);
    const revertible = !image.exists || image.kept === true;
    const e: CheckpointEntry = {
      seq: this.nextSeq++,
      callId,
      path: absPath,
      display: this.display(absPath),
      pre: image,
      revertible,
      ...(revertible ? {} : { note: `Not revertible: ${note ?? 'its content was not kept'}.` }),
      ts: this.now(),
    };
    this.list.push(e);
    this.byCallPath.set(key, e);
    this.record({ k: 'pre', e });
    return e.note;
  }

  /**
   * After a tool call finished (done, error or rejected): keep the agent's version of each file
   * it touched. A file that did not change at all is forgotten (the tool failed before writing).
   */
  afterCall(callId: string): Promise<void> {
    const run = async () => {
      for (const e of this.list) {
        if (e.callId !== callId || e.post) continue;
        const { image, note } = await this.image(e.path);
        if (image.exists === e.pre.exists && image.hash !== undefined && image.hash === e.pre.hash) {
          this.remove(e);
          continue;
        }
        if (!image.exists && !e.pre.exists) {
          this.remove(e);
          continue;
        }
        e.post = image;
        // Without the post-image hash a later revert could not tell whether the user edited the file.
        if (image.exists && image.hash === undefined && e.revertible) {
          e.revertible = false;
          e.note = `Not revertible: ${note ?? 'the new content could not be read'}.`;
        }
        this.record({ k: 'post', seq: e.seq, post: image, ...(e.revertible ? {} : { revertible: false, note: e.note }) });
      }
    };
    const p = this.pending.then(run, run);
    this.pending = p.catch(() => undefined);
    return p;
  }

  private remove(e: CheckpointEntry): void {
    this.list.splice(this.list.indexOf(e), 1);
    this.byCallPath.delete(`${e.callId}\u0000${e.path}`);
    this.record({ k: 'drop', seq: e.seq });
  }

  entries(): readonly CheckpointEntry[] {
    return this.list;
  }

  /** Files changed by the task and not reverted, with what happened to them overall. */
  touchedFiles(): { path: string; change: 'modified' | 'created' | 'deleted' }[] {
    const first = new Map<string, CheckpointEntry>();
    const last = new Map<string, CheckpointEntry>();
    for (const e of this.list) {
      if (e.reverted) continue;
      if (!first.has(e.path)) first.set(e.path, e);
      last.set(e.path, e);
    }
    const out: { path: string; change: 'modified' | 'created' | 'deleted' }[] = [];
    for (const [p, f] of first) {
      const l = last.get(p)!;
      const existsAfter = l.post ? l.post.exists : true;
      const change = !f.pre.exists ? 'created' : !existsAfter ? 'deleted' : 'modified';
      out.push({ path: f.display, change });
    }
    return out;
  }

  /** Whether this call changed anything that can still be reverted (for the card's button). */
  callState(callId: string): { changed: boolean; revertible: boolean; reverted: boolean; note?: string } {
    const es = this.list.filter((e) => e.callId === callId);
    return {
      changed: es.length > 0,
      revertible: es.length > 0 && es.every((e) => e.revertible && !e.reverted),
      reverted: es.length > 0 && es.every((e) => e.reverted !== undefined),
      ...(es.find((e) => e.note) ? { note: es.find((e) => e.note)!.note } : {}),
    };
  }

  /**
   * What one call did to each file it changed, as texts (before, and as the agent left it), for
   * "Open diff" on a card after the change was decided. Undefined where a side was not kept.
   */
  async callTexts(callId: string): Promise<{ display: string; path: string; before?: string; after?: string }[]> {
    await this.pending;
    const out: { display: string; path: string; before?: string; after?: string }[] = [];
    for (const e of this.list.filter((x) => x.callId === callId)) {
      out.push({
        display: e.display,
        path: e.path,
        before: e.pre.exists ? await this.blob(e.pre) : '',
        after: !e.post ? undefined : e.post.exists ? await this.blob(e.post) : '',
      });
    }
    return out;
  }

  /** A file's text before the task first changed it ('' when the task created it), for "diff since the task started". */
  async textAtStart(display: string): Promise<{ path: string; before?: string } | undefined> {
    await this.pending;
    const first = this.list.find((e) => e.display === display && !e.reverted);
    if (!first) return undefined;
    return { path: first.path, before: first.pre.exists ? await this.blob(first.pre) : '' };
  }

  private async blob(img: FileImage): Promise<string | undefined> {
    if (!img.hash || !img.kept) return undefined;
    try {
      return fs.readFileSync(this.blobPath(img.hash), 'utf8');
    } catch {
      return undefined;
    }
  }

  private async current(absPath: string): Promise<{ exists: boolean; text?: string; hash?: string }> {
    const st = await this.fs.stat(absPath);
    if (!st) return { exists: false };
    const text = await this.fs.readText(absPath);
    return { exists: true, text, hash: sha(text) };
  }

  /** Checks that `absPath` is still exactly as the agent left it after `e`; otherwise a conflict with the diff. */
  private async check(e: CheckpointEntry, laterAgentChange: CheckpointEntry | undefined): Promise<RevertConflict | undefined> {
    if (!e.revertible) return { path: e.display, reason: e.note ?? 'Not revertible.' };
    if (!e.post) return { path: e.display, reason: `The agent's version of ${e.display} was never recorded (the session ended during the change), so a revert could overwrite other edits.` };
    if (laterAgentChange) {
      return { path: e.display, reason: `${e.display} was changed again by a later agent call (${laterAgentChange.callId}); revert that one first, or revert the whole task.` };
    }
    const cur = await this.current(e.path);
    if (cur.exists === e.post.exists && (!cur.exists || cur.hash === e.post.hash)) return undefined;
    const agent = e.post.exists ? ((await this.blob(e.post)) ?? '') : '';
    const diff = createTwoFilesPatch(`${e.display} (agent's version)`, `${e.display} (now)`, agent, cur.text ?? '', undefined, undefined, { context: 3 });
    const what = !cur.exists ? 'deleted' : e.post.exists ? 'edited' : 'created again';
    return { path: e.display, reason: `${e.display} was ${what} since the agent's change, so reverting would lose that work.`, diff };
  }

  private async restore(e: CheckpointEntry): Promise<'restored' | 'deleted' | 'recreated'> {
    if (!e.pre.exists) {
      await this.fs.delete(e.path);
      return 'deleted';
    }
    const text = await this.blob(e.pre);
    if (text === undefined) throw new Error(`The checkpoint of ${e.display} is missing from ${this.dir}.`);
    await this.fs.writeText(e.path, text);
    return e.post && !e.post.exists ? 'recreated' : 'restored';
  }

  /** Says nothing about the diffs: where they are depends on who shows them (revertRefusalText.ts). */
  private refusal(conflicts: RevertConflict[], what: string): RevertResult {
    const lines = conflicts.map((c) => `- ${c.reason}`);
    return { ok: false, conflicts, message: `Nothing was reverted: ${what} cannot be undone safely.\n${lines.join('\n')}` };
  }

  private markReverted(es: CheckpointEntry[]): void {
    const at = this.now();
    for (const e of es) e.reverted = at;
    this.record({ k: 'reverted', seqs: es.map((e) => e.seq), at });
  }

  /** Undo one tool call: every file it touched goes back to its pre-image, or nothing changes. */
  async revertCall(callId: string): Promise<RevertResult> {
    await this.pending;
    const es = this.list.filter((e) => e.callId === callId && !e.reverted);
    if (es.length === 0) {
      const done = this.list.some((e) => e.callId === callId);
      return { ok: false, conflicts: [], message: done ? 'This change was already reverted.' : 'This tool call changed no files, so there is nothing to revert.' };
    }
    const conflicts: RevertConflict[] = [];
    for (const e of es) {
      const later = this.list.find((o) => o.path === e.path && o.seq > e.seq && !o.reverted);
      const c = await this.check(e, later);
      if (c) conflicts.push(c);
    }
    if (conflicts.length) return this.refusal(conflicts, 'this change');
    const files: { path: string; action: 'restored' | 'deleted' | 'recreated' }[] = [];
    for (const e of [...es].reverse()) files.push({ path: e.display, action: await this.restore(e) });
    this.markReverted(es);
    return { ok: true, files, message: `Reverted ${describe(files)}.` };
  }

  /**
   * Undo everything the task changed, newest first; refuses as a whole if any file was edited since.
   * With `onlyFile` (its workspace-relative path), only that file goes back to how the task found
   * it: when one file blocks the whole-task revert, the others can still be reverted one by one.
   */
  async revertTask(onlyFile?: string): Promise<RevertResult> {
    await this.pending;
    const live = this.list.filter((e) => !e.reverted && (onlyFile === undefined || e.display === onlyFile));
    if (live.length === 0) return { ok: false, conflicts: [], message: onlyFile === undefined ? 'This task has no changes left to revert.' : `The task has no changes to ${onlyFile} left to revert.` };
    const r = await this.revertChains(live, onlyFile === undefined ? 'the task' : `the task's changes to ${onlyFile}`);
    return r.ok ? { ...r, message: onlyFile === undefined ? `Reverted the whole task: ${describe(r.files)}.` : `Reverted the task's changes to ${describe(r.files)}.` } : r;
  }

  /**
   * Undo the changes of `callIds` (a stretch of the task: the calls after an edited message), each
   * file back to how it was before the first of them; refuses as a whole if any file was edited
   * since, and when a later call outside the stretch changed the same file again.
   */
  async revertCalls(callIds: ReadonlySet<string>): Promise<RevertResult> {
    await this.pending;
    const live = this.list.filter((e) => !e.reverted && callIds.has(e.callId));
    if (live.length === 0) return { ok: true, files: [], message: 'No files were changed after that point.' };
    const outside = this.list.find((o) => !o.reverted && !callIds.has(o.callId) && live.some((e) => e.path === o.path && o.seq > e.seq));
    if (outside) return this.refusal([{ path: outside.display, reason: `${outside.display} was changed again by a later agent call (${outside.callId}).` }], 'these changes');
    const r = await this.revertChains(live, 'these changes');
    return r.ok ? { ...r, message: `Reverted ${describe(r.files)}.` } : r;
  }

  /** Restores each file of `live` (unreverted entries, oldest first) to its first pre-image, or nothing. */
  private async revertChains(live: CheckpointEntry[], what: string): Promise<RevertResult> {
    const byPath = new Map<string, CheckpointEntry[]>();
    for (const e of live) byPath.set(e.path, [...(byPath.get(e.path) ?? []), e]);
    const conflicts: RevertConflict[] = [];
    for (const chain of byPath.values()) {
      const last = chain[chain.length - 1];
      const c = await this.check(last, undefined);
      if (c) {
        conflicts.push(c);
        continue;
      }
      for (let i = 1; i < chain.length; i++) {
        const prev = chain[i - 1];
        const e = chain[i];
        if (!e.revertible || !prev.revertible) conflicts.push({ path: e.display, reason: (e.note ?? prev.note) ?? 'Not revertible.' });
        else if (!prev.post || prev.post.exists !== e.pre.exists || prev.post.hash !== e.pre.hash) {
          conflicts.push({ path: e.display, reason: `${e.display} was edited between two of the agent's changes, so reverting would lose that work.` });
        }
      }
    }
    if (conflicts.length) return this.refusal(conflicts, what);
    const files: { path: string; action: 'restored' | 'deleted' | 'recreated' }[] = [];
    // Newest first; per file only the oldest pre-image matters, which the chain check made equal to restoring each in turn.
    for (const chain of [...byPath.values()].sort((a, b) => b[b.length - 1].seq - a[a.length - 1].seq)) {
      files.push({ path: chain[0].display, action: await this.restore(chain[0]) });
    }
    this.markReverted(live);
    return { ok: true, files, message: '' };
  }
}

function describe(files: { path: string; action: string }[]): string {
  return files.map((f) => `${f.path} ${f.action === 'restored' ? 'restored' : f.action === 'deleted' ? 'removed (the agent had created it)' : 'restored (the agent had deleted it)'}`).join(', ');
}
