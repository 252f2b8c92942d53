import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { HistoryStore } from '../../../src/core/history/historyStore';
import { Card } from '../../../src/protocol';
import { expectedAnswer } from './fixtures/killScript';

// Bundled into a temp dir of its own: the shared out/ folder is rebuilt (wiped) by other runs.
let writer = '';

/** Runs the writer until it has ended at least `minTurns` turns, then waits a random moment and SIGKILLs it. */
function runAndKill(dir: string, id: string, first: number, resume: boolean, compactEach: boolean, rnd: () => number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, [writer, dir, id, String(first), resume ? 'resume' : 'new', ...(compactEach ? ['compact'] : [])], { stdio: ['ignore', 'pipe', 'pipe'] });
    let lastEnded = first - 1;
    let killed = false;
    let buf = '';
    let err = '';
    const target = first + 1 + Math.floor(rnd() * 6);
    child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      for (const m of buf.matchAll(/ended (\d+)\n/g)) lastEnded = Math.max(lastEnded, Number(m[1]));
      buf = buf.slice(buf.lastIndexOf('\n') + 1);
      if (!killed && lastEnded >= target) {
        killed = true;
        // Somewhere inside the next turn (or the one after): mid-append, mid-compaction, mid-rename.
        setTimeout(() => child.kill('SIGKILL'), Math.floor(rnd() * 15));
      }
    });
    child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
    child.on('exit', (code, signal) => {
      if (signal !== 'SIGKILL') reject(new Error(`writer exited ${code}: ${err}`));
      else resolve(lastEnded);
    });
  });
}

describe('history: saves survive SIGKILL at random points', function () {
  this.timeout(120_000);
  let tmp: string;
  let bundleDir: string;
  before(async () => {
    bundleDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-killwriter-'));
    writer = path.join(bundleDir, 'killWriter.js');
    const esbuild = await import('esbuild');
    await esbuild.build({
      entryPoints: [path.resolve(__dirname, '../../../../test/unit/history/fixtures/killWriter.ts')],
      bundle: true, platform: 'node', format: 'cjs', target: 'node20', outfile: writer, logLevel: 'silent',
    });
  });
  after(() => fs.rmSync(bundleDir, { recursive: true, force: true }));
  beforeEach(() => (tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-kill-'))));
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('always loads, with every turn that ended before the kill complete and intact', async () => {
    let seed = 12345;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const store = new HistoryStore(tmp);
    const id = 'tkill';
    let first = 1;
    let compactions = 0;
    const ended: number[] = [];
    for (let round = 0; round < 16; round++) {
      const lastEnded = await runAndKill(tmp, id, first, round > 0, round % 2 === 1, rnd);
      for (let n = first; n <= lastEnded; n++) ended.push(n);
      const task = await store.load(id);
      assert.equal(task.skippedLines, 0, 'only a cut last line may be unreadable');
      for (const c of task.cards) assert.ok(Card.safeParse(c).success, `card ${c.id} is well-formed`);
      const byId = new Map(task.cards.map((c) => [c.id, c]));
      for (const n of ended) {
        const a = byId.get(`a${n}`);
        assert.ok(a && a.kind === 'text', `round ${round}: turn ${n} is there`);
        assert.equal(a.text, expectedAnswer(n), `round ${round}: turn ${n}'s streamed text is whole`);
        const t = byId.get(`t${n}`);
        assert.ok(t && t.kind === 'tool_call' && t.status === 'done' && t.result === `contents of f${n}`);
      }
      // A turn in flight may be partly there, but what is there is a prefix of the truth.
      const inflight = byId.get(`a${lastEnded + 1}`);
      if (inflight && inflight.kind === 'text') assert.ok(expectedAnswer(lastEnded + 1).startsWith(inflight.text));
      assert.ok(task.meta.usage.tokens_in >= ended.length * 1000);
      if (task.gen > 0) compactions++;
      // The next round resumes after the turns that are there (the in-flight one is redone with new ids).
      first = Math.max(...task.cards.filter((c) => /^u\d+$/.test(c.id)).map((c) => Number(c.id.slice(1)))) + 1;
    }
    assert.ok(compactions > 0, 'the kills hit tasks that had been compacted');
    assert.deepEqual(fs.readdirSync(path.join(tmp, 'tasks', id)).filter((n) => n.endsWith('.tmp')), [], 'stale temp files are cleaned on load');
  });
});
