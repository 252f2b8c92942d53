// What facts add to a request: the facts section of the system prompt (src/core/facts/factSection.ts)
// for N realistic facts, within the default cap (tandem.facts.maxTokens, 300), counted with
// gpt-tokenizer (o200k_base) as the prompt budget is. Only roles that plan or execute plans get the
// section; a reviewing role gets none. Used by bench/factTokens.bench.mjs and the budgets stage.
import { createRequire } from 'node:module';
import { loadCore } from '../compiledCore.mjs';

const require = createRequire(import.meta.url);

const SUBJECTS = ['The test suite', 'The web app', 'Database migrations', 'The CLI entry point', 'Logging', 'Configuration', 'The build', 'API handlers', 'Background jobs', 'The linter'];
const CLAIMS = [
  'runs with `npm run t` and needs the fixtures in test/data first',
  'uses Flask, not FastAPI, with blueprints registered in create_app()',
  'is written with Alembic; never edit a generated revision by hand',
  'parses its arguments with argparse and exits 2 on bad usage',
  'goes through structlog with JSON output in production',
  'is read from settings.toml and overridden by TANDEM_ environment variables',
  'is driven by a Makefile whose default target also type-checks',
];

/** N facts as the store keeps them, each citing a few lines of its own file. */
export function sampleFacts(n, now = Date.now()) {
  return Array.from({ length: n }, (_, i) => ({
    id: `f${(0x10000000 + i).toString(16)}`,
    text: `${SUBJECTS[i % SUBJECTS.length]} ${CLAIMS[i % CLAIMS.length]}`,
    citation: { kind: 'lines', files: [{ path: `src/pkg${i % 7}/module_${i}.py`, start: 10 + i, end: 18 + i, hash: '0123456789abcdef' }] },
    source: { by: 'reviewer', role: 'reviewer', model: 'gpt-4o-mini' },
    workspace: 'bench-000000000000',
    created: now - i * 3_600_000,
    checked: now - i * 3_600_000,
  }));
}

/** The facts section's tokens for each count, at the default cap: { facts, sent, tokens, cap }. */
export function factSectionTokens(counts = [0, 10, 30]) {
  const { factSection } = loadCore('src/core/facts/factSection.js');
  const { DEFAULT_FACT_SETTINGS } = loadCore('src/core/facts/factSettings.js');
  const { encode } = require('gpt-tokenizer');
  const cap = DEFAULT_FACT_SETTINGS.maxTokens;
  return counts.map((n) => {
    const s = factSection(sampleFacts(n), 'Add a --verbose flag to the CLI', cap);
    // As the loop joins it to the rest of the system prompt: a blank line, then the section.
    return { facts: n, sent: s.sent.length, tokens: s.text ? encode(`\n\n${s.text}`).length : 0, cap };
  });
}
