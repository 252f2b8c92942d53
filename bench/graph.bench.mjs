// Parallel plan steps: prints figures against the budgets, asserts nothing.
// - a 4-step plan with two independent branches (1 → 2 and 3 → 4) through the real CLI code
//   (in-process runCli, --approve plan) against the scripted server answering every request after
//   300 ms: wall time with --parallel 2 against --parallel 1 (budget: ≤ 0.6× sequential)
// - creating and removing one step worktree of this repository (budget: ≤ 300 ms)
// Runs on the compiled core in out/ (compiled if missing; see compiledCore.mjs).
// Usage: node bench/graph.bench.mjs [--smoke]
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { loadCore } from './compiledCore.mjs';
import { count, SMOKE } from './support/smoke.mjs';
import { line } from './foundation/budget.mjs';

const { runCli } = loadCore('src/cli/runCli.js');
const { ScriptedServer, planStepOf } = loadCore('test/support/scriptedServer.js');
const { GitStepWorkspaces } = loadCore('src/host/node/gitStepWorkspaces.js');

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const ANSWER_MS = count(300, 20);
const RUNS = count(3, 1);
const WORKTREES = count(7, 1);

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

async function runPlan(parallel) {
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
    env: { ...process.env, TANDEM_API_KEY: 'sk-bench', TANDEM_MAX_RETRIES: '0', TANDEM_DATA_DIR: path.join(ws, '..', `${path.basename(ws)}-data`) },
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

console.log(`\nA 4-step plan with two independent branches, the server answering after ${ANSWER_MS} ms (${RUNS} run${RUNS === 1 ? '' : 's'} each, median)`);
const sequential = [];
const parallel = [];
for (let i = 0; i < RUNS; i++) {
  sequential.push(await runPlan(1));
  parallel.push(await runPlan(2));
}
const seq = median(sequential);
const par = median(parallel);
console.log(line('--parallel 1 (one at a time)', seq, 'ms', undefined, 0));
console.log(line('--parallel 2', par, 'ms', undefined, 0));
console.log(line('parallel / sequential wall time', par / seq, '×', SMOKE ? undefined : 0.6, 2));

console.log(`\nOne step worktree of this repository, created from the workspace as it is and removed (${WORKTREES} times, median)`);
const times = [];
for (let i = 0; i < WORKTREES; i++) {
  const t0 = performance.now();
  const steps = new GitStepWorkspaces();
  const wt = await steps.create(ROOT, 'bench');
  await wt.ready;
  await steps.remove(wt);
  times.push(performance.now() - t0);
}
console.log(line('create + remove a worktree', median(times), 'ms', SMOKE ? undefined : 300, 0));
