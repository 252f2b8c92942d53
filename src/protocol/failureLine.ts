/**
 * The line of a failed command's output that says why it failed: the first assertion or error
 * line, the one a person scrolls for. A test runner prints pages of progress and a summary ("# fail
 * 1", "Tests: 1 failed") that only repeat that something failed; the exit code says that already.
 */
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;
/** Lines that name the failure itself, most telling first. */
const TELLING: RegExp[] = [
  /\b(Assertion ?Error|AssertError|assert(ion)? failed)\b/i,
  /\b[A-Z][A-Za-z]*(Error|Exception)\b|\bpanic(ked)?\b|\berror( TS\d+|\[[A-Z0-9]+\])?:|\bTraceback\b|^E\s{2,}\S/,
  /\bexpected\b.*\b(but|got|received|to equal|to be)\b/i,
  /^\s*(not ok\b|FAIL\b|✗|✖|×|✘)/,
];
/** Summary lines that restate the count, never the reason. */
const SUMMARY = /^\s*(error: [|>]-?$|#\s*(fail|pass|tests|suites|skip|todo|cancelled|duration_ms)\b|Tests?:|Test Suites?:|\d+ (passing|failing|failed|passed)\b|npm (ERR!|error)|ELIFECYCLE|Command failed with exit code|error Command failed)/i;
const MAX = 200;

export function firstFailureLine(output: string): string | undefined {
  const lines = output.replace(ANSI, '').split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '' && !SUMMARY.test(l));
  for (const test of TELLING) {
    const hit = lines.find((l) => test.test(l));
    if (hit) return hit.length > MAX ? `${hit.slice(0, MAX - 1)}…` : hit;
  }
  return undefined;
}
