// What one request costs in prompt for each role, counted exactly as the loop sends it: the role's
// system prompt and the `tools` array (JSON) it offers that role, with gpt-tokenizer (o200k_base).
// A role that executes plans is also offered fail_step: the largest set each role can get is counted.
// Used by bench/promptTokens.bench.mjs (per-tool table) and the budgets stage (bench/budgets.mjs).
// Runs on the compiled core in out/ (compiled if missing; see compiledCore.mjs).
import { createRequire } from 'node:module';
import { loadCore } from '../compiledCore.mjs';

const require = createRequire(import.meta.url);

/** [{ role, label, system, schemas, total, tools: [{ tool, tokens }] }] for every product role. */
export function promptTokensPerRole() {
  const { PRODUCT_ROLES } = loadCore('src/core/roles/roles.js');
  const { productToolRegistry, EXPLORER_TOOLS } = loadCore('src/core/tools/index.js');
  const { chatToolDef } = loadCore('src/core/tools/chatToolDef.js');
  const { encode } = require('gpt-tokenizer');
  const count = (s) => encode(s).length;
  const registry = productToolRegistry();
  // Explorers are on by default: the task adds `explore` (offered to the Planner) as it does here.
  registry.add(EXPLORER_TOOLS);
  const catalog = { stepTools: registry.stepTools(PRODUCT_ROLES) };
  return PRODUCT_ROLES.list.map((def) => {
    const planning = def.executesPlans ? { execution: {} } : undefined;
    const tools = registry.offeredTo(def, planning).map((t) => chatToolDef(t, catalog));
    const system = count(def.systemPrompt(catalog));
    const schemas = count(JSON.stringify(tools));
    return {
      role: def.id,
      label: def.label,
      system,
      schemas,
      total: system + schemas,
      tools: tools.map((t) => ({ tool: t.function.name, tokens: count(JSON.stringify(t)) })).sort((a, b) => b.tokens - a.tokens),
    };
  });
}
