/**
 * The report as one self-contained HTML page (no script, no external file; it opens from disk in
 * any browser and in the editor): per model assignment, pass rate and cost as bars; per task, a
 * grid of pass / fail with why, cost and time; then the per-role figures. Every text from the run
 * (task names, model names, verifier output) is escaped.
 */
import { compactLabel, FAILURE_TEXT, failureHeadline, type EvalReport } from './evalReport';
import { percent, seconds, usd } from './evalMarkdown';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const PALETTE = ['#3b82f6', '#a855f7', '#f59e0b', '#14b8a6', '#ef4444', '#64748b'];

/** Horizontal bars, one per assignment: `value` in [0, max], labelled with `text`. */
function bars(title: string, rows: { label: string; value: number; text: string }[], max: number): string {
  const rowH = 30;
  const labelW = 300;
  const barW = 360;
  const h = rows.length * rowH + 34;
  const body = rows
    .map((r, i) => {
      const y = 28 + i * rowH;
      const w = max > 0 ? Math.max(2, (r.value / max) * barW) : 2;
      return `<text x="${labelW - 8}" y="${y + 15}" text-anchor="end" class="l">${esc(r.label.length > 44 ? `${r.label.slice(0, 43)}…` : r.label)}</text>` +
        `<rect x="${labelW}" y="${y}" width="${w.toFixed(1)}" height="20" rx="3" fill="${PALETTE[i % PALETTE.length]}"/>` +
        `<text x="${labelW + w + 6}" y="${y + 15}" class="v">${esc(r.text)}</text>`;
    })
    .join('');
  return `<svg role="img" aria-label="${esc(title)}" width="${labelW + barW + 120}" height="${h}" viewBox="0 0 ${labelW + barW + 120} ${h}"><text x="0" y="16" class="t">${esc(title)}</text>${body}</svg>`;
}

export function evalHtml(report: EvalReport): string {
  const labels = report.assignments.map((a) => a.assignment);
  const passChart = bars('Pass rate', report.assignments.map((a) => ({ label: compactLabel(a.models), value: a.passRate, text: `${percent(a.passRate)} (${a.passed}/${a.tasks})` })), 1);
  const priced = report.assignments.filter((a) => a.costUsd !== undefined);
  const maxCost = Math.max(0, ...priced.map((a) => a.costUsd!));
  const costChart = priced.length
    ? bars('Cost', report.assignments.map((a) => ({ label: compactLabel(a.models), value: a.costUsd ?? 0, text: a.costUsd === undefined ? 'price unknown' : usd(a.costUsd) })), maxCost)
    : bars('Tokens (no prices known)', report.assignments.map((a) => ({ label: compactLabel(a.models), value: a.tokensIn + a.tokensOut, text: `${a.tokensIn + a.tokensOut} tokens` })), Math.max(...report.assignments.map((a) => a.tokensIn + a.tokensOut), 0));
  const grid = report.tasks
    .map((t) => {
      const cells = labels
        .map((l) => {
          const r = report.results.find((x) => x.task === t.id && x.assignment === l);
          if (!r) return '<td class="none">—</td>';
          const why = r.passed ? 'pass' : FAILURE_TEXT[r.reason ?? 'error'];
          const tip = r.detail ? ` title="${esc(r.detail.slice(0, 600))}"` : '';
          const line = r.passed ? '' : failureHeadline(r.detail);
          return `<td class="${r.passed ? 'pass' : 'fail'}"${tip}><b>${esc(why)}</b>${line ? `<br><small class="why">${esc(line.slice(0, 120))}</small>` : ''}<br><small>${esc(usd(r.costUsd))} · ${esc(seconds(r.wallMs))} · ${r.modelRequests} req</small></td>`;
        })
        .join('');
      return `<tr><th scope="row">${esc(t.id)}${t.language ? ` <small>${esc(t.language)}</small>` : ''}</th>${cells}</tr>`;
    })
    .join('\n');
  const roleRows = report.results
    .flatMap((r) => Object.entries(r.byRole).map(([role, u]) => `<tr><td>${esc(r.task)}</td><td>${esc(r.assignment)}</td><td>${esc(role)}</td><td>${u.requests}</td><td>${u.tokensIn} / ${u.tokensOut}</td><td>${esc(usd(u.costUsd))}</td></tr>`))
    .join('\n');
  const behaviour = report.results
    .map((r) => `<tr><td>${esc(r.task)}</td><td>${esc(r.assignment)}</td><td>${r.toolCalls}</td><td>${r.failedToolCalls}</td><td>${r.refusedEdits}</td><td>${r.amendments}</td><td>${r.replans}</td><td>${esc(r.verdicts.join(', ') || '—')}</td></tr>`)
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tandem eval ${esc(report.createdAt)}</title>
<style>
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,sans-serif;margin:24px;color:#111;background:#fff}
h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:28px 0 8px}.meta{color:#555}
svg .t{font-weight:600;font-size:14px}svg .l{font-size:12px;fill:#333}svg .v{font-size:12px;fill:#111}
.charts{display:flex;flex-wrap:wrap;gap:24px;margin-top:16px}
table{border-collapse:collapse;margin-top:6px}th,td{border:1px solid #ddd;padding:4px 8px;text-align:left;vertical-align:top}
td.pass{background:#dcfce7}td.fail{background:#fee2e2}td.none{color:#999}small{color:#555}
@media (prefers-color-scheme: dark){body{background:#1e1e1e;color:#ddd}svg .l,svg .v{fill:#ccc}.meta,small{color:#aaa}th,td{border-color:#444}td.pass{background:#14532d}td.fail{background:#7f1d1d}}
</style></head><body>
<h1>Tandem eval</h1>
<div class="meta">${esc(report.createdAt)} · flow <code>${esc(report.flow)}</code> · ${esc(report.endpoint)} · ${report.tasks.length} tasks · ${report.assignments.length} model assignment${report.assignments.length === 1 ? '' : 's'}</div>
<div class="charts">${passChart}${costChart}</div>
<h2>Tasks</h2>
<table><thead><tr><th>task</th>${report.assignments.map((a) => `<th title="${esc(a.assignment)}">${esc(compactLabel(a.models))}</th>`).join('')}</tr></thead><tbody>
${grid}
</tbody></table>
<h2>Per role</h2>
<table><thead><tr><th>task</th><th>assignment</th><th>role</th><th>requests</th><th>tokens in / out</th><th>cost</th></tr></thead><tbody>
${roleRows}
</tbody></table>
<h2>Agent behaviour</h2>
<table><thead><tr><th>task</th><th>assignment</th><th>tool calls</th><th>failed</th><th>edits refused</th><th>amendments</th><th>replans</th><th>verdicts</th></tr></thead><tbody>
${behaviour}
</tbody></table>
</body></html>
`;
}
