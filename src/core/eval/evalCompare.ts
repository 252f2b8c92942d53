/**
 * `tandem eval compare A.json B.json`: what changed from A to B, task by task and assignment by
 * assignment — a pass that became a failure (and why), the other way round, and the totals.
 */
import { FAILURE_TEXT, failureHeadline, type EvalReport } from './evalReport';
import { percent, resultText, usd } from './evalMarkdown';

export interface EvalComparison {
  lines: string[];
  /** Results that passed in A and fail in B. */
  regressions: number;
  improvements: number;
}

export function compareReports(a: EvalReport, b: EvalReport): EvalComparison {
  const lines: string[] = [];
  let regressions = 0;
  let improvements = 0;
  const labels = [...new Set([...a.assignments, ...b.assignments].map((s) => s.assignment))];
  for (const label of labels) {
    const sa = a.assignments.find((s) => s.assignment === label);
    const sb = b.assignments.find((s) => s.assignment === label);
    if (!sa || !sb) {
      lines.push(`${label}: only in ${sa ? 'A' : 'B'}`);
      continue;
    }
    const cost = sa.costUsd !== undefined && sb.costUsd !== undefined ? `, cost ${usd(sa.costUsd)} → ${usd(sb.costUsd)}` : '';
    lines.push(`${label}: ${sa.passed}/${sa.tasks} (${percent(sa.passRate)}) → ${sb.passed}/${sb.tasks} (${percent(sb.passRate)})${cost}, tokens ${sa.tokensIn + sa.tokensOut} → ${sb.tokensIn + sb.tokensOut}`);
    const tasks = [...new Set([...a.results, ...b.results].filter((r) => r.assignment === label).map((r) => r.task))].sort();
    for (const t of tasks) {
      const ra = a.results.find((r) => r.task === t && r.assignment === label);
      const rb = b.results.find((r) => r.task === t && r.assignment === label);
      if (ra && rb && ra.passed === rb.passed && ra.reason === rb.reason) continue;
      let mark = ' ';
      if (ra?.passed && rb && !rb.passed) {
        mark = '-';
        regressions++;
      } else if (rb?.passed && ra && !ra.passed) {
        mark = '+';
        improvements++;
      }
      const why = rb && !rb.passed && rb.detail ? ` — ${FAILURE_TEXT[rb.reason ?? 'error']}: ${failureHeadline(rb.detail).slice(0, 160)}` : '';
      lines.push(`  ${mark} ${t}: ${resultText(ra)} → ${resultText(rb)}${why}`);
    }
  }
  lines.push(`${improvements} improved, ${regressions} regressed`);
  return { lines, regressions, improvements };
}
