// Prompt size per role (budget: system prompt + tool schemas ≤ 2,500 tokens per
// request for either role, the Planner's smaller). Counts exactly what the loop sends: the role's
// system prompt and the `tools` array (JSON) it offers that role, with gpt-tokenizer (o200k_base).
// Runs on the compiled core in out/ (compiled if missing; see compiledCore.mjs).
// Usage: node bench/promptTokens.bench.mjs
import { createRequire } from 'node:module';
import { loadCore } from './compiledCore.mjs';
import * as path from 'node:path';

const require = createRequire(import.meta.url);
const { PRODUCT_ROLES } = loadCore('src/core/roles/roles.js');
const { productToolRegistry } = loadCore('src/core/tools/index.js');
const { chatToolDef } = loadCore('src/core/tools/chatToolDef.js');
const { encode } = require('gpt-tokenizer');

const BUDGET = 2500;
const registry = productToolRegistry();
const catalog = { stepTools: registry.stepTools(PRODUCT_ROLES) };
const count = (s) => encode(s).length;
const results = {};

for (const def of PRODUCT_ROLES.list) {
  const role = def.id;
  // A role executing a plan is also offered fail_step: measure the largest set each role can get.
  const planning = def.executesPlans ? { execution: {} } : undefined;
  const tools = registry.offeredTo(def, planning).map((t) => chatToolDef(t, catalog));
  const system = count(def.systemPrompt(catalog));
  const schemas = count(JSON.stringify(tools));
  const total = system + schemas;
  results[role] = total;
  console.log(`\n${def.label}: ${total} tokens (system prompt ${system} + ${tools.length} tool schemas ${schemas}) — budget ${BUDGET}: ${total <= BUDGET ? 'OK' : 'OVER'}`);
  const rows = tools.map((t) => ({ tool: t.function.name, tokens: count(JSON.stringify(t)) })).sort((a, b) => b.tokens - a.tokens);
  console.table(rows);
}
const [first, second] = PRODUCT_ROLES.list;
console.log(`\n${first.label} smaller than ${second.label}: ${results[first.id] < results[second.id] ? 'yes' : 'NO'} (${results[first.id]} vs ${results[second.id]})`);
