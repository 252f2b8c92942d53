// Prompt size per role (budget: system prompt + tool schemas ≤ BUDGETS.promptTokens per request for
// each role, the Planner's smaller than the Actor's), with each tool's share. Counted as the loop
// sends it (see support/promptTokens.mjs). Deterministic: the budgets stage of `npm test` checks the totals.
// Usage: node bench/promptTokens.bench.mjs [--smoke]   (the same in smoke mode: it is fast)
import { promptTokensPerRole } from './support/promptTokens.mjs';
import { BUDGETS } from './foundation/budget.mjs';

const results = promptTokensPerRole();
for (const r of results) {
  console.log(`\n${r.label}: ${r.total} tokens (system prompt ${r.system} + ${r.tools.length} tool schemas ${r.schemas}) — budget ${BUDGETS.promptTokens}: ${r.total <= BUDGETS.promptTokens ? 'OK' : 'OVER'}`);
  console.table(r.tools);
}
const [first, second] = results;
console.log(`\n${first.label} smaller than ${second.label}: ${first.total < second.total ? 'yes' : 'NO'} (${first.total} vs ${second.total})`);
