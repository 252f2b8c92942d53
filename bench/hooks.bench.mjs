// User hooks: what one PreToolUse hook adds to a tool call (spawning the user's command, writing the
// JSON to its stdin, reading its answer), by the command's interpreter; and the cost when hooks are
// configured but none matches. Prints figures, asserts nothing.
// Runs on the compiled core in out/ (compiled if missing; see compiledCore.mjs).
// Usage: node bench/hooks.bench.mjs [--smoke]
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadCore } from './compiledCore.mjs';
import { count } from './support/smoke.mjs';

const { UserHooks } = loadCore('src/core/userHooks/userHooks.js');
const { parseHookConfig } = loadCore('src/core/userHooks/hookConfig.js');
const { NodeHookProcess } = loadCore('src/host/node/nodeHookProcess.js');

const RUNS = count(30, 2);
const logger = { info() {}, warn() {}, error() {}, debug() {} };
const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-bench-hooks-')));
const call = { callId: 'c1', tool: 'edit_file', isMcp: false, args: { path: 'src/a.ts', edits: [{ old_text: 'a', new_text: 'b' }] } };
const scope = { sessionId: 'bench', role: 'actor' };
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function hooksFor(matcher, ...commands) {
  const parsed = parseHookConfig({ hooks: { PreToolUse: [{ matcher, hooks: commands.map((command) => ({ type: 'command', command })) }] } }, 'bench');
  return new UserHooks({ commands: parsed.commands, process: new NodeHookProcess(), cwd: ws, logger });
}

const py = path.join(ws, 'hook.py');
fs.writeFileSync(py, 'import json, sys\nd = json.load(sys.stdin)\nsys.exit(2 if "/generated/" in d["tool_input"]["file_path"] else 0)\n');
const js = path.join(ws, 'hook.js');
fs.writeFileSync(js, "let s='';process.stdin.on('data',(d)=>s+=d).on('end',()=>process.exit(JSON.parse(s).tool_input.file_path.includes('/generated/')?2:0));\n");
const sh = path.join(ws, 'hook.sh');
fs.writeFileSync(sh, '#!/bin/bash\ninput=$(cat)\ncase "$input" in *"/generated/"*) exit 2;; esac\nexit 0\n');

const cases = [
  ['no hook matches (Bash hook, an edit call)', hooksFor('Bash', 'cat >/dev/null')],
  ['sh: cat >/dev/null', hooksFor('Edit', 'cat >/dev/null')],
  ['bash script', hooksFor('Edit', `bash ${sh}`)],
  ['python3 script (json.load)', hooksFor('Edit', `python3 ${py}`)],
  ['node script (JSON.parse)', hooksFor('Edit', `node ${js}`)],
  ['3 hooks at once (sh, bash, python3)', hooksFor('Edit', 'cat >/dev/null', `bash ${sh}`, `python3 ${py}`)],
];

const rows = [];
try {
  for (const [name, hooks] of cases) {
    await hooks.preToolUse(call, scope); // warm the page cache and the interpreter
    const times = [];
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now();
      const out = await hooks.preToolUse(call, scope);
      times.push(performance.now() - t);
      if (out.warnings.length || out.block) throw new Error(`${name}: ${out.warnings.join('; ') || out.block}`);
    }
    rows.push({ 'PreToolUse per call': name, 'median ms': median(times).toFixed(2), 'max ms': Math.max(...times).toFixed(2) });
  }
} finally {
  fs.rmSync(ws, { recursive: true, force: true });
}
console.log(`hooks: ${RUNS} calls each, ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)}`);
console.table(rows);
