// The budgets, in one place for the benches and the budgets stage of `npm test`
// (bench/budgets.mjs), and one line per figure, the way every foundation bench prints it.
export const BUDGETS = {
  /** Production webview JS+CSS, gzipped at level 9, KB (1,024 bytes). */
  webviewGzKB: 55,
  /** Production dist/extension.js, minified, KB; the lazily loaded files beside it are apart. */
  extensionKB: 900,
  /** The packaged VSIX, MB. */
  vsixMB: 2,
  /** System prompt + tool schemas per request, for each role with its built-in tools (o200k tokens). */
  promptTokens: 1700,
  /** activate(): loading dist/extension.js plus the body of activate(), ms (timed: `npm run bench` only). */
  activateMs: 50,
};

export function line(name, value, unit, budget, digits = 1) {
  const v = `${value.toFixed(digits)} ${unit}`;
  if (budget === undefined) return `  ${name.padEnd(34)} ${v.padStart(12)}`;
  const verdict = value <= budget ? 'within budget' : `OVER budget by ${(value - budget).toFixed(digits)} ${unit}`;
  return `  ${name.padEnd(34)} ${v.padStart(12)}   budget ≤ ${budget} ${unit}   ${verdict}`;
}
