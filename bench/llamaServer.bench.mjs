// Tandem's own overhead per request against llama.cpp's real llama-server: prints figures, asserts nothing.
// The server runs the tests' tiny model (answers "OK"; test/llama/support/tinyModel.ts), so its
// work per request is small and stable, and the same prompt is evaluated from its cache each time.
// - Tandem: one whole turn through the Agent (system prompt and tool catalog built, context fitted,
//   the request streamed through the openai SDK, cards and events, usage) — send() from call to return.
// - bare: the very request body Tandem sent, POSTed with fetch and the stream read to the end.
// For each request the server's own time (its `total time` log line: prompt evaluation plus
// generation) is taken off the wall time; what is left is the client's side. Tandem's share is that
// minus the bare client's, and the CPU time of this process (the server is another process, so
// its work is not in it). Runs are interleaved so load drift hits both alike.
// Needs the built server: `node scripts/setup-llama-server.mjs` (npm test builds it).
// In smoke mode (`--smoke`) one warm-up and one measured run each: the same real server, model and paths.
// Usage: node bench/llamaServer.bench.mjs [runs] [--smoke]
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadCore } from './compiledCore.mjs';
import { args, count } from './support/smoke.mjs';

const runs = Number(args[0] ?? count(15, 1));
const { startLlamaServer } = loadCore('test/llama/support/llamaServer.js');
const { llamaAgent } = loadCore('test/llama/support/llamaAgent.js');

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const min = (xs) => Math.min(...xs);
const p90 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.9))];
const ms = (x) => `${x.toFixed(1)} ms`;

let server;
try {
  server = await startLlamaServer({ behaviour: 'answer', jinja: true });
} catch (e) {
  console.error(`llama-server could not start (build it once with \`node scripts/setup-llama-server.mjs\`): ${e.message}`);
  process.exit(1);
}

/** The server's own time for each request it finished, in order (its `print_timing` log lines). */
const serverTimes = () => [...server.log().matchAll(/total time =\s+([\d.]+) ms/g)].map((m) => Number(m[1]));

/** Wall and CPU milliseconds of `fn` in this process, and the server's own time for the request it made. */
async function measure(fn) {
  const before = serverTimes().length;
  const cpu = process.cpuUsage();
  const t = performance.now();
  await fn();
  const wall = performance.now() - t;
  const used = process.cpuUsage(cpu);
  // The server logs its timings just after the last byte: give the log a moment to arrive.
  for (let i = 0; i < 50 && serverTimes().length === before; i++) await new Promise((r) => setTimeout(r, 10));
  const times = serverTimes();
  if (times.length !== before + 1) throw new Error(`expected one request in the server's log, saw ${times.length - before}`);
  const serverMs = times[times.length - 1];
  return { wall, cpu: (used.user + used.system) / 1000, server: serverMs, outside: wall - serverMs };
}

// One workspace for every turn, so every request is the same prompt as the bare one (the server's
// cache then does the same work for both).
const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-llama-bench-'));

async function tandemTurn(baseURL) {
  const a = llamaAgent({ baseURL, workspace: ws });
  try {
    return await measure(async () => {
      const outcome = await a.agent.send('Say OK.');
      if (outcome !== 'done') throw new Error(`turn ended ${outcome}: ${JSON.stringify(a.cardsOf('error'))}`);
    });
  } finally {
    a.close();
  }
}

async function bare(body) {
  return measure(async () => {
    const r = await fetch(`${server.directURL}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer sk-no-key-needed' }, body });
    if (!r.ok) throw new Error(`bare request: HTTP ${r.status} ${await r.text()}`);
    const reader = r.body.getReader();
    for (;;) if ((await reader.read()).done) break;
  });
}

try {
  // Through the tap once, to capture the exact body; this also warms the server's prompt cache.
  await tandemTurn(server.baseURL);
  const body = server.lastRequestBody();
  if (!body) throw new Error('no request body captured');
  const request = JSON.parse(body);
  // Warm both paths (JIT, sockets) before measuring.
  for (let i = 0; i < count(3, 1); i++) {
    await tandemTurn(`${server.directURL}/v1`);
    await bare(body);
  }
  const tandem = [];
  const plain = [];
  for (let i = 0; i < runs; i++) {
    tandem.push(await tandemTurn(`${server.directURL}/v1`));
    plain.push(await bare(body));
  }
  const col = (xs, k) => xs.map((x) => x[k]);
  const line = (label, xs) =>
    console.log(`${label} wall median ${ms(median(col(xs, 'wall')))}, of which the server's own ${ms(median(col(xs, 'server')))}; outside the server median ${ms(median(col(xs, 'outside')))} (min ${ms(min(col(xs, 'outside')))}, p90 ${ms(p90(col(xs, 'outside')))}); CPU here median ${ms(median(col(xs, 'cpu')))}`);
  console.log(`request: ${request.messages.length} messages, ${request.tools?.length ?? 0} tools, ${body.length.toLocaleString('en-US')} bytes of JSON; answer "OK"; ${runs} runs each, interleaved`);
  line('Tandem turn (Agent.send):', tandem);
  line('bare fetch, same body:   ', plain);
  console.log(`Tandem's own overhead per request: ${ms(median(col(tandem, 'outside')) - median(col(plain, 'outside')))} wall beyond a bare client (medians of time outside the server), ${ms(median(col(tandem, 'cpu')) - median(col(plain, 'cpu')))} CPU beyond a bare client`);
  console.log(`  (time outside the server includes HTTP on 127.0.0.1 and streaming; Tandem's whole time outside the server: median ${ms(median(col(tandem, 'outside')))})`);
} finally {
  await server.close();
  fs.rmSync(ws, { recursive: true, force: true });
}
