// Loop overhead: prints figures, asserts nothing.
// - dispatch overhead per tool call: many no-op read-only calls through the Dispatcher (permission
//   check, JSON parse, zod validation, card events, result capping), in messages of 1 and of 10 calls
// - the same with the real read_file on a small file
// - a whole turn through the LLM client against the scripted server on 127.0.0.1: per request
// Runs on the compiled core in out/ (compiled if missing; see compiledCore.mjs).
// Usage: node bench/loop.bench.mjs [--smoke]
import { createRequire } from 'node:module';
import { loadCore } from './compiledCore.mjs';
import { count } from './support/smoke.mjs';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';

const require = createRequire(import.meta.url);
const { Dispatcher } = loadCore('src/core/turn/dispatcher.js');
const { EventStream } = loadCore('src/core/events/index.js');
const { wireAgent } = loadCore('src/core/runtime/wireAgent.js');
const { defaultSettings, DEFAULT_LIMITS } = loadCore('src/core/settings/settings.js');
const { PRODUCT_ROLES } = loadCore('src/core/roles/roles.js');
const { ToolRegistry, fixedProvider } = loadCore('src/core/tools/toolRegistry.js');
const { createNodeHost } = loadCore('src/host/node/nodeHost.js');
const { WorkspacePaths } = loadCore('src/core/workspace/workspacePaths.js');
const { ReadTracker } = loadCore('src/core/tools/readTracker.js');
const { readFileTool } = loadCore('src/core/tools/readFile.js');
const { ScriptedServer } = loadCore('test/support/scriptedServer.js');
const { z } = require('zod');

const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-loop-bench-'));
fs.writeFileSync(path.join(ws, 'small.ts'), Array.from({ length: 40 }, (_, i) => `export const v${i} = ${i};`).join('\n'));
const host = createNodeHost({ roots: [ws] });

const noop = {
  name: 'noop',
  description: 'does nothing',
  input: z.object({ path: z.string(), n: z.number().int().optional() }),
  permissions: ['read'],
  readOnly: true,
  display: { kind: 'read', title: 'No-op', fold: 'run', headline: (i) => ({ verb: `noop ${i.path}` }) },
  run: async () => ({ content: 'ok' }),
};

/** The Dispatcher's environment as the turn loop builds it: the role in force and a tool registry. */
function dispatcher(tools, events) {
  return new Dispatcher({
    role: () => PRODUCT_ROLES.initial,
    tools: new ToolRegistry([fixedProvider('bench', tools)]),
    events,
    host,
    paths: new WorkspacePaths(host.fs),
    reads: new ReadTracker(),
    signal: new AbortController().signal,
    limits: { ...DEFAULT_LIMITS, maxToolCallsPerTurn: 1e9 },
    policy: () => ({ approval: { mode: 'never', autoApprove: { edit: false, create: false, delete: false, command: false } }, commandAllowList: [], roots: host.fs.roots }),
    setState: () => {},
    askToContinue: async () => true,
  });
}

async function perCall(label, tool, args, batch, total) {
  let events = 0;
  const stream = new EventStream(() => events++);
  const d = dispatcher([tool], stream);
  const counters = { toolCalls: 0, allowedCalls: 1e9, consecutiveErrors: 0 };
  const mk = (i) => ({ index: i, id: `c${i}`, name: tool.name, arguments: JSON.stringify(args) });
  const warm = count(200, batch);
  for (let i = 0; i < warm; i += batch) {
    const r = await d.dispatch(Array.from({ length: batch }, (_, j) => mk(i + j)), counters);
    // Measure calls that really run, not refusals or argument errors.
    const bad = r.outcomes.find((o) => o.status !== 'done');
    if (bad) throw new Error(`${label}: a call ended ${bad.status}: ${bad.content}`);
  }
  const t0 = performance.now();
  for (let i = 0; i < total; i += batch) await d.dispatch(Array.from({ length: batch }, (_, j) => mk(i + j)), counters);
  const ms = performance.now() - t0;
  return { case: label, 'calls': total, 'per message': batch, 'µs per call': ((ms * 1000) / total).toFixed(1), 'events per call': (events / (total + warm)).toFixed(1) };
}

const rows = [];
rows.push(await perCall('no-op read-only tool', noop, { path: 'a.ts', n: 1 }, 1, count(5000, 10)));
rows.push(await perCall('no-op read-only tool', noop, { path: 'a.ts', n: 1 }, 10, count(5000, 10)));
rows.push(await perCall('read_file, 40-line file', readFileTool, { path: 'small.ts' }, 1, count(2000, 10)));
rows.push(await perCall('read_file, 40-line file', readFileTool, { path: 'small.ts' }, 10, count(2000, 10)));
console.log('\nDispatcher overhead per tool call');
console.table(rows);

// A whole turn over a real socket: 20 requests, each with one no-op call, then a text answer.
const steps = [];
const N = count(20, 2);
for (let i = 0; i < N; i++) steps.push({ type: 'tool_calls', calls: [{ name: 'noop', arguments: { path: `f${i}.ts` } }] });
steps.push({ type: 'text', text: 'done' });
const server = await ScriptedServer.start(steps);
const settings = defaultSettings({ baseURL: server.url, apiKey: 'bench', models: { planner: 'm', actor: 'm' } });
settings.limits = { ...settings.limits, maxToolCallsPerTurn: 1000 };
let ev = 0;
const agent = wireAgent({ host, settings, role: PRODUCT_ROLES.initial.id, tools: new ToolRegistry([fixedProvider('bench', [noop])]), emit: () => ev++ });
const t0 = performance.now();
const outcome = await agent.send('go');
const ms = performance.now() - t0;
console.log(`\nWhole turn against the scripted server: ${N + 1} streamed requests + ${N} tool calls in ${ms.toFixed(1)} ms (${(ms / (N + 1)).toFixed(2)} ms per request incl. SSE parse, dispatch, events; outcome ${outcome}; ${ev} events)`);
await server.close();
fs.rmSync(ws, { recursive: true, force: true });
