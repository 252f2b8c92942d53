/** The report as Markdown: one line per assignment, then a table of tasks × assignments with why each failed. */
import { FAILURE_TEXT, type EvalReport, type EvalTaskResult } from './evalReport';

export const usd = (v: number | undefined): string => (v === undefined ? 'n/a' : v < 0.01 && v > 0 ? `$${v.toFixed(4)}` : `$${v.toFixed(2)}`);
export const seconds = (ms: number): string => (ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`);
export const percent = (x: number): string => `${Math.round(x * 100)} %`;

/** A table cell must not break the table: pipes and new lines escaped. */
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

export function resultText(r: EvalTaskResult | undefined): string {
  if (!r) return '—';
  return r.passed ? 'pass' : `fail: ${FAILURE_TEXT[r.reason ?? 'error']}`;
}

export function evalMarkdown(report: EvalReport): string {
  const out: string[] = [`# Tandem eval — ${report.createdAt}`, '', `Flow: \`${report.flow}\` · endpoint: ${report.endpoint} · ${report.tasks.length} tasks`, ''];
  out.push('| assignment | passed | pass rate | cost | tokens in / out | time | why not |', '|---|---|---|---|---|---|---|');
  for (const a of report.assignments) {
    const why = Object.entries(a.failures).map(([k, n]) => `${FAILURE_TEXT[k as keyof typeof FAILURE_TEXT] ?? k} ×${n}`).join(', ');
    out.push(`| ${cell(a.assignment)} | ${a.passed}/${a.tasks} | ${percent(a.passRate)} | ${usd(a.costUsd)} | ${a.tokensIn} / ${a.tokensOut} | ${seconds(a.wallMs)} | ${cell(why) || '—'} |`);
  }
  out.push('', '## Tasks', '');
  const labels = report.assignments.map((a) => a.assignment);
  out.push(`| task | ${labels.map(cell).join(' | ')} |`, `|---|${labels.map(() => '---').join('|')}|`);
  for (const t of report.tasks) {
    const row = labels.map((l) => {
      const r = report.results.find((x) => x.task === t.id && x.assignment === l);
      return r ? `${resultText(r)} (${usd(r.costUsd)}, ${seconds(r.wallMs)}, ${r.modelRequests} req)` : '—';
    });
    out.push(`| ${cell(t.id)} | ${row.map(cell).join(' | ')} |`);
  }
  const failed = report.results.filter((r) => !r.passed && r.detail);
  if (failed.length) {
    out.push('', '## Why tasks failed', '');
    for (const r of failed) out.push(`- **${r.task}** (${r.assignment}): ${FAILURE_TEXT[r.reason ?? 'error']} — ${cell(r.detail!.slice(0, 300))}`);
  }
  out.push('', '## Per role', '', '| task | assignment | role | requests | tokens in / out | cost |', '|---|---|---|---|---|---|');
  for (const r of report.results) {
    for (const [role, u] of Object.entries(r.byRole)) out.push(`| ${cell(r.task)} | ${cell(r.assignment)} | ${role} | ${u.requests} | ${u.tokensIn} / ${u.tokensOut} | ${usd(u.costUsd)} |`);
  }
  out.push('', '## Agent behaviour', '', '| task | assignment | tool calls | failed | edits refused | amendments | replans | verdicts | steps done |', '|---|---|---|---|---|---|---|---|---|');
  for (const r of report.results) {
    out.push(`| ${cell(r.task)} | ${cell(r.assignment)} | ${r.toolCalls} | ${r.failedToolCalls} | ${r.refusedEdits} | ${r.amendments} | ${r.replans} | ${r.verdicts.join(', ') || '—'} | ${r.steps ? `${r.steps.done}/${r.steps.total}` : '—'} |`);
  }
  return `${out.join('\n')}\n`;
}
