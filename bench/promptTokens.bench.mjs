// Prompt size per role (budget: system prompt + tool schemas ≤ 2,500 tokens per
// request for either role, the Planner's smaller). Counts exactly what the loop sends: the role's
// system prompt and the `tools` array (JSON) it offers that role, with gpt-tokenizer (o200k_base).
// Runs on the compiled core in out/ (compiled if missing; see compiledCore.mjs).
// Usage: node bench/promptTokens.bench.mjs
import { createRequire } from 'node:module';
import { loadCore } from './compiledCore.mjs';
import * as path from 'node:path';

const require = createRequire(import.meta.url);
const { ROLES } = loadCore('src/core/roles.js');
const { defaultToolRegistry } = loadCore('src/core/agent/defaultTools.js');
const { offeredTools, chatToolDef } = loadCore('src/core/agent/offeredTools.js');
const { encode } = require('gpt-tokenizer');

const BUDGET = 2500;
const registry = defaultToolRegistry();
const count = (s) => encode(s).length;
const results = {};

for (const role of Object.keys(ROLES)) {
  // The Actor executing a plan is also offered fail_step: measure the largest set each role can get.
  const planning = role === 'actor' ? { execution: {} } : undefined;
  const tools = offeredTools(registry, role, planning).map(chatToolDef);
  const system = count(ROLES[role].systemPrompt);
  const schemas = count(JSON.stringify(tools));
  const total = system + schemas;
  results[role] = total;
  console.log(`\n${ROLES[role].label}: ${total} tokens (system prompt ${system} + ${tools.length} tool schemas ${schemas}) — budget ${BUDGET}: ${total <= BUDGET ? 'OK' : 'OVER'}`);
  const rows = tools.map((t) => ({ tool: t.function.name, tokens: count(JSON.stringify(t)) })).sort((a, b) => b.tokens - a.tokens);
  console.table(rows);
}
console.log(`\nPlanner smaller than Actor: ${results.planner < results.actor ? 'yes' : 'NO'} (${results.planner} vs ${results.actor})`);
