/** Prefix of the one console line carrying mocha's stats from the extension host to the runner. */
export const STATS_MARKER = '##tandem-mocha-stats## ';
/** Prefix of every console line the extension host prints during the run (see hostConsole.ts). */
export const HOST_LINE_MARKER = '##tandem-host## ';
