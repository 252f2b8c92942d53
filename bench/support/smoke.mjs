// Smoke mode (`--smoke`): every bench runs its whole path once with tiny counts, so `npm test`
// (the budgets stage) notices a bench that no longer runs. Its figures mean nothing and nothing
// is compared with a timing; the real figures come from `npm run bench` without the flag.
export const SMOKE = process.argv.includes('--smoke');

/** `full` normally, `smoke` in smoke mode: loop counts, sizes, repetitions. */
export const count = (full, smoke) => (SMOKE ? smoke : full);

/** The arguments after the script name, without `--smoke`. */
export const args = process.argv.slice(2).filter((a) => a !== '--smoke');
