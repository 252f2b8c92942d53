/**
 * Runs the JS search's regex matching off the main thread, under a time limit.
 *
 * The JS engine backtracks without bound: a model's `^(a+)+\1$` against a line of forty a's runs
 * for hours, and on the main thread that blocks the event loop — Stop, request timeouts and, in VS
 * Code, the whole extension host. In a Worker the main thread stays free: a scan that makes no
 * progress for `timeLimitMs` (or a Stop) terminates the thread, which ends the match wherever it is.
 *
 * The worker's code is a self-contained string run with `eval: true`, so it works unchanged from
 * the esbuild bundles (dist/cli.js, dist/extension.js), from the transpiled tests and from
 * sources — there is no second file to ship or to find on disk.
 */
import { Worker } from 'node:worker_threads';

/** Without a reply for this long the pattern is taken to be runaway. Normal scans of a 4 MB file take milliseconds. */
export const DEFAULT_MATCH_TIME_LIMIT_MS = 5_000;

/** A failure of the matching thread whose message is meant for the model (a runaway pattern, a crash, no threads). */
export class RegexWorkerError extends Error {}
/** Thrown for a scan that ran over the limit. */
export class RegexTooSlowError extends RegexWorkerError {}

/** Scans one file's text line by line; replies `[line number, line text (cut to `keep` chars)]` per match. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const re = new RegExp(workerData.source, workerData.flags);
const keep = workerData.keep;
parentPort.on('message', (job) => {
  const lines = job.text.split('\\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const hits = [];
  for (let n = 0; n < lines.length && hits.length < job.limit; n++) {
    let line = lines[n];
    if (line.endsWith('\\r')) line = line.slice(0, -1);
    if (re.test(line)) hits.push([n + 1, line.length > keep ? line.slice(0, keep) : line]);
  }
  parentPort.postMessage({ id: job.id, hits });
});
`;

export interface LineHit {
  line: number;
  text: string;
}

interface Pending {
  resolve(hits: LineHit[]): void;
  reject(e: unknown): void;
  label: string;
}

export class RegexWorker {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private timer: NodeJS.Timeout | undefined;
  private failure: unknown;
  private readonly onAbort = () => this.fail(this.signal.reason ?? new Error('aborted'));

  constructor(
    private readonly regex: { source: string; flags: string },
    private readonly opts: { keepChars: number; timeLimitMs: number },
    private readonly signal: AbortSignal,
  ) {
    signal.addEventListener('abort', this.onAbort, { once: true });
    // Started now, not at the first file: the thread's ~50-100 ms start-up overlaps the walk and the first reads.
    if (!signal.aborted) this.start();
  }

  /** Matching lines of `text` (at most `limit`). `label` names the file in a time-limit error. */
  scan(text: string, limit: number, label: string): Promise<LineHit[]> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    if (this.signal.aborted) return Promise.reject(this.signal.reason);
    const w = this.start();
    if (!w) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise<LineHit[]>((resolve, reject) => {
      this.pending.set(id, { resolve, reject, label });
      if (this.pending.size === 1) this.arm();
      w.postMessage({ id, text, limit });
    });
  }

  /** Ends the thread (idempotent); any scan still waiting is rejected. */
  close(): void {
    this.signal.removeEventListener('abort', this.onAbort);
    this.fail(new Error('search closed'));
  }

  private start(): Worker | undefined {
    if (this.worker) return this.worker;
    if (this.failure !== undefined) return undefined;
    let w: Worker;
    try {
      w = new Worker(WORKER_SOURCE, {
        eval: true,
        workerData: { source: this.regex.source, flags: this.regex.flags, keep: this.opts.keepChars },
        // A pattern's backtracking stack and a 4 MB file's lines fit easily; a runaway allocation does not get the host's heap.
        resourceLimits: { maxOldGenerationSizeMb: 256 },
        stdout: false,
        stderr: false,
      });
    } catch (e) {
      // Never fall back to matching on this thread: that is the freeze this class exists to prevent.
      this.fail(new RegexWorkerError(`The built-in search could not start its worker thread (${(e as Error).message}); install ripgrep (rg).`));
      return undefined;
    }
    w.on('message', (m: { id: number; hits: [number, string][] }) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      // Progress: the next file in the queue gets a fresh time limit.
      if (this.pending.size) this.arm();
      else this.disarm();
      p.resolve(m.hits.map(([line, text]) => ({ line, text })));
    });
    w.on('error', (e) => this.fail(new RegexWorkerError(`The built-in search failed: ${e.message}`)));
    w.on('exit', () => this.fail(new RegexWorkerError('The built-in search stopped unexpectedly.')));
    this.worker = w;
    return w;
  }

  private arm(): void {
    this.disarm();
    this.timer = setTimeout(() => {
      // The oldest waiting scan is the one the worker is on (it handles them in order).
      const first = this.pending.values().next().value as Pending | undefined;
      const s = Math.round(this.opts.timeLimitMs / 100) / 10;
      this.fail(
        new RegexTooSlowError(
          `The pattern took too long (over ${s} s on ${first?.label ?? 'a file'}, stopped); simplify it: avoid nested quantifiers ` +
            'such as (a+)+ or (a|aa)*, and back-references after them; anchor it or search for a literal part instead.',
        ),
      );
    }, this.opts.timeLimitMs);
  }

  private disarm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private fail(e: unknown): void {
    if (this.failure === undefined) this.failure = e;
    this.disarm();
    const w = this.worker;
    this.worker = undefined;
    if (w) {
      w.removeAllListeners();
      w.on('error', () => {}); // a late error from a thread being torn down is of no interest
      void w.terminate();
    }
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const p of waiting) p.reject(this.failure);
  }
}
