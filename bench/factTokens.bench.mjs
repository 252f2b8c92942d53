// Prompt tokens per role with 0 / 10 / 30 facts: the system prompt + tool schemas (as
// support/promptTokens.mjs counts them) plus the facts section for the roles that get it (those that
// plan or execute plans; never the Reviewer), against the per-role budget with no facts and the
// facts cap (tandem.facts.maxTokens) for the extra. Deterministic: the budgets stage checks the figures.
// Usage: node bench/factTokens.bench.mjs [--smoke]   (the same in smoke mode: it is fast)
import { promptTokensPerRole } from './support/promptTokens.mjs';
import { factSectionTokens } from './support/factTokens.mjs';
import { BUDGETS } from './foundation/budget.mjs';
import { loadCore } from './compiledCore.mjs';

const { PRODUCT_ROLES } = loadCore('src/core/roles/roles.js');
const { TaskFactSection } = loadCore('src/core/facts/taskFactSection.js');
const sections = factSectionTokens([0, 10, 30]);
const rows = [];
for (const r of promptTokensPerRole()) {
  const gets = TaskFactSection.receives(PRODUCT_ROLES.get(r.role));
  const row = { role: r.label, 'no facts': r.total };
  for (const s of sections.slice(1)) row[`${s.facts} facts`] = r.total + (gets ? s.tokens : 0);
  rows.push(row);
}
console.log(`Prompt tokens per request (system prompt + tool schemas + facts section), budget ≤ ${BUDGETS.promptTokens} per role with no facts, facts capped at ${sections[0].cap}:`);
console.table(rows);
for (const s of sections) console.log(`  ${String(s.facts).padStart(2)} facts: section ${String(s.tokens).padStart(3)} tokens, ${s.sent} sent (cap ${s.cap}): ${s.tokens <= s.cap ? 'within the cap' : 'OVER the cap'}`);
