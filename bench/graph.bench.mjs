// Parallel plan steps: prints figures against the issue's budgets, asserts nothing.
// - a 4-step plan with two independent branches (1 → 2 and 3 → 4) through the real CLI code
//   (in-process runCli, --approve plan) against the scripted server answering every request after
//   300 ms: wall time with --parallel 2 against --parallel 1 (budget: ≤ 0.6× sequential)
// - step workspaces of both kinds side by side on generated repositories of 1,000 / 10,000 / 50,000
//   files of 4 KB (one commit): the copy-on-write overlay and the git worktree it falls back to:
//   create and remove times, and the memory a running step holds (bytes allocated under the step's
//   folders once it has written a few files), against the budgets at 50,000 files on the
//   copy-on-write path: create ≤ 100 ms, memory ≤ 2× the bytes the step wrote; and the listing of
//   untracked files each copy-on-write step runs in the background (no budget: it delays nothing)
// Runs on the compiled core in out/ (compiled if missing; see compiledCore.mjs).
// Usage: node bench/graph.bench.mjs [--smoke]
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadCore } from './compiledCore.mjs';
import { count, SMOKE } from './support/smoke.mjs';
import { line } from './foundation/budget.mjs';

const { runCli } = loadCore('src/cli/runCli.js');
const { ScriptedServer, planStepOf } = loadCore('test/support/scriptedServer.js');
const { GitStepWorkspaces } = loadCore('src/host/node/gitStepWorkspaces.js');
const { OverlayStepWorkspaces } = loadCore('src/host/node/cow/overlayStepWorkspaces.js');

const ANSWER_MS = count(300, 20);
const RUNS = count(3, 1);
const WORKSPACE_RUNS = count(3, 1);
const SIZES = count([1_000, 10_000, 50_000], [50]);
const FILE_BYTES = 4096;
/** What the step writes while it runs: a few files of its own. */
const STEP_WRITES = { files: 10, bytes: 4096 };

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const gitIn = (cwd, ...args) => execFileSync('git', args, { cwd, encoding: 'utf8' });

/** Two chains: 1 → 2 writes a.txt then a2.txt, 3 → 4 writes b.txt then b2.txt. */
const plan = {
  format_version: '1.0',
  goal: 'Two independent branches',
  steps: [
    { files: ['a.txt'], depends_on: [] },
    { files: ['a2.txt'], depends_on: [1] },
    { files: ['b.txt'], depends_on: [] },
    { files: ['b2.txt'], depends_on: [3] },
  ].map((s, i) => ({ step_number: i + 1, action: `Write ${s.files[0]}`, reason: 'bench', tools_needed: ['write_file'], estimated_time: '1m', files: s.files, check: `test -s ${s.files[0]}`, depends_on: s.depends_on })),
  estimated_total_time: '4m',
  risks: [],
  prerequisites: [],
};

const lanes = () => Object.fromEntries(plan.steps.map((s) => [String(s.step_number), [
  { type: 'tool_calls', calls: [{ name: 'write_file', arguments: { path: s.files[0], content: `step ${s.step_number}\n` } }] },
  { type: 'text', text: `Wrote ${s.files[0]}.` },
]]));

async function runPlan(parallel, stepWorkspaces) {
  const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-graph-bench-')));
  const planFile = path.join(os.tmpdir(), `${path.basename(ws)}.json`);
  gitIn(ws, 'init', '-q');
  fs.writeFileSync(path.join(ws, 'README.md'), 'bench\n');
  gitIn(ws, 'add', '-A');
  gitIn(ws, '-c', 'user.name=b', '-c', 'user.email=b@b', 'commit', '-qm', 'init');
  fs.writeFileSync(planFile, JSON.stringify(plan));
  const server = await ScriptedServer.start([], { lanes: { keyOf: planStepOf, steps: lanes() }, answerDelayMs: ANSWER_MS });
  let err = '';
  const t0 = performance.now();
  const code = await runCli({
    argv: ['run', '--workspace', ws, '--base-url', server.url, '--role', 'actor', '--plan', planFile, '--approve', 'plan', '--no-history', '--json', '--parallel', String(parallel)],
    env: { ...process.env, ...(stepWorkspaces ? { TANDEM_STEP_WORKSPACES: stepWorkspaces } : {}), TANDEM_API_KEY: 'sk-bench', TANDEM_MAX_RETRIES: '0', TANDEM_DATA_DIR: path.join(ws, '..', `${path.basename(ws)}-data`) },
    stdout: () => {},
    stderr: (s) => { err += s; },
    isTty: false,
    cwd: ws,
  });
  const ms = performance.now() - t0;
  await server.close();
  const files = ['a.txt', 'a2.txt', 'b.txt', 'b2.txt'].filter((f) => fs.existsSync(path.join(ws, f))).length;
  fs.rmSync(ws, { recursive: true, force: true });
  fs.rmSync(planFile, { force: true });
  if (code !== 0 || files !== 4) throw new Error(`--parallel ${parallel}: exit ${code}, ${files} of 4 files written\n${err}`);
  return ms;
}

console.log(`\nA 4-step plan with two independent branches, the server answering after ${ANSWER_MS} ms (${RUNS} run${RUNS === 1 ? '' : 's'} each, median; load ${os.loadavg()[0].toFixed(1)})`);
// Copy-on-write views (the default) first, then the worktrees they fall back to, side by side.
for (const [kind, env] of [['copy-on-write', undefined], ['git worktree', 'worktree']]) {
  const sequential = [];
  const parallel = [];
  for (let i = 0; i < RUNS; i++) {
    sequential.push(await runPlan(1, env));
    parallel.push(await runPlan(2, env));
  }
  const seq = median(sequential);
  const par = median(parallel);
  console.log(line(`${kind}: --parallel 1 (one at a time)`, seq, 'ms', undefined, 0));
  console.log(line(`${kind}: --parallel 2`, par, 'ms', undefined, 0));
  // The budget is the default path's (copy-on-write on Linux).
  console.log(line(`${kind}: parallel / sequential`, par / seq, '×', SMOKE || env ? undefined : 0.6, 2));
}

/** Bytes allocated under a folder (st_blocks: what tmpfs holds in memory), links not followed. */
function allocated(dir) {
  let total = 0;
  const stack = [dir];
  while (stack.length) {
    const d = stack.pop();
    let st;
    try {
      st = fs.lstatSync(d);
    } catch {
      continue;
    }
    total += st.blocks * 512;
    if (!st.isDirectory()) continue;
    let names = [];
    try {
      names = fs.readdirSync(d);
    } catch {
      // overlayfs's scratch folder is unreadable (mode 0): it holds nothing
    }
    for (const n of names) stack.push(path.join(d, n));
  }
  return total;
}

/** A repository of `n` files of 4 KB in folders of 100, one commit. */
function generateRepo(n) {
  const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `tandem-steps-bench-${n}-`)));
  const chunk = Buffer.alloc(FILE_BYTES, 'x');
  for (let i = 0; i < n; i++) {
    const dir = path.join(ws, `d${Math.floor(i / 100)}`);
    if (i % 100 === 0) fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, `f${i}.txt`), chunk);
  }
  gitIn(ws, 'init', '-q');
  gitIn(ws, 'add', '-A');
  gitIn(ws, '-c', 'user.name=b', '-c', 'user.email=b@b', 'commit', '-qm', 'init');
  return ws;
}

const stepsDir = fs.mkdtempSync(path.join(fs.existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir(), 'tandem-steps-bench-'));
const overlay = new OverlayStepWorkspaces({ dir: stepsDir });
const worktrees = new GitStepWorkspaces({ dir: stepsDir });
const kinds = [
  {
    name: 'copy-on-write',
    create: (ws) => overlay.create(ws, 'bench'),
    // The step's folder (upper, work and the mount point) holds the view's mount point: the root spelled inside its namespace.
    folders: (s) => [path.dirname(s.root.replace(/^\/proc\/\d+\/root/, ''))],
    remove: (s) => overlay.remove(s),
  },
  {
    name: 'git worktree',
    create: (ws) => worktrees.create(ws, 'bench'),
    folders: (s) => [s.root],
    remove: (s) => worktrees.remove(s),
  },
];

/** One step of each kind made, written to, measured and removed; medians of the runs. */
async function measure(ws) {
  const out = {};
  for (const k of kinds) {
    const create = [];
    const remove = [];
    const held = [];
    for (let r = 0; r < WORKSPACE_RUNS; r++) {
      let t0 = performance.now();
      const s = await k.create(ws);
      await s.ready;
      create.push(performance.now() - t0);
      const root = s.root;
      for (let i = 0; i < STEP_WRITES.files; i++) fs.writeFileSync(path.join(root, `d0/step-${i}.txt`), Buffer.alloc(STEP_WRITES.bytes, 'y'));
      held.push(k.folders(s).reduce((a, d) => a + allocated(d), 0));
      t0 = performance.now();
      await k.remove(s);
      remove.push(performance.now() - t0);
    }
    out[k.name] = { create: median(create), remove: median(remove), held: median(held) };
  }
  return out;
}

const written = STEP_WRITES.files * STEP_WRITES.bytes;
const load = () => os.loadavg()[0].toFixed(1);
console.log(`\nStep workspaces, both kinds side by side: ${WORKSPACE_RUNS} run${WORKSPACE_RUNS === 1 ? '' : 's'} each (median); each step writes ${STEP_WRITES.files} files of ${STEP_WRITES.bytes / 1024} KB (${written / 1024} KB); ${os.cpus().length} cores, load ${load()}`);
console.log('  (+ listing: the untracked files a copy-on-write step lists in the background once made; its start does not wait for it)');
console.log(`  ${'repository'.padEnd(22)} ${'kind'.padEnd(14)} ${'create'.padStart(10)} ${'remove'.padStart(10)} ${'memory held'.padStart(14)}`);
let at50k;
try {
  for (const n of SIZES) {
    const ws = generateRepo(n);
    try {
      const m = await measure(ws);
      for (const [kind, f] of Object.entries(m)) {
        console.log(`  ${`${n.toLocaleString('en')} files (${Math.round((n * FILE_BYTES) / 1024 / 1024)} MB)`.padEnd(22)} ${kind.padEnd(14)} ${`${f.create.toFixed(0)} ms`.padStart(10)} ${`${f.remove.toFixed(0)} ms`.padStart(10)} ${`${(f.held / 1024).toFixed(0)} KB`.padStart(14)}`);
      }
      // What each copy-on-write step also runs, in the background after it is made (never awaited
      // by its start): the workspace's untracked files, so a patch can tell a file the step wrote
      // from one the workspace already had (readOverlayPatch.ts).
      const listing = [];
      for (let r = 0; r < WORKSPACE_RUNS; r++) {
        const t0 = performance.now();
        gitIn(ws, 'ls-files', '-z', '--others', '--exclude-standard');
        listing.push(performance.now() - t0);
      }
      console.log(`  ${''.padEnd(22)} ${'+ listing'.padEnd(14)} ${`${median(listing).toFixed(0)} ms`.padStart(10)}`);
      at50k = m['copy-on-write'];
    } finally {
      fs.rmSync(ws, { recursive: true, force: true });
    }
  }
} finally {
  fs.rmSync(stepsDir, { recursive: true, force: true });
}
console.log(`\nCopy-on-write at ${SIZES[SIZES.length - 1].toLocaleString('en')} files (load ${load()})`);
console.log(line('create a step workspace', at50k.create, 'ms', SMOKE ? undefined : 100, 0));
console.log(line('memory held / bytes written', at50k.held / written, '×', SMOKE ? undefined : 2, 2));
