import type { Card } from '../../protocol';
import { formatUsd } from '../cost/priceTable';
import type { TaskMeta } from './format';

function fence(text: string, lang = ''): string {
  const longest = Math.max(2, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length));
  const f = '`'.repeat(longest + 1);
  return `${f}${lang}\n${text}\n${f}`;
}

const when = (ts: number) => new Date(ts).toISOString().replace('T', ' ').slice(0, 19) + ' UTC';

/** A task as a readable Markdown document (what the user saw, in order; usage and state chips left out). */
export function exportMarkdown(meta: TaskMeta, cards: readonly Card[]): string {
  const out: string[] = [`# ${meta.title}`, ''];
  const cost = meta.usage.cost_usd !== undefined ? formatUsd(meta.usage.cost_usd) : 'unknown';
  out.push(
    `- Task: \`${meta.id}\``,
    `- Started: ${when(meta.created)}; last activity: ${when(meta.updated)}`,
    ...(meta.workspace ? [`- Workspace: \`${meta.workspace}\``] : []),
    `- Models: ${meta.models.join(', ') || '—'}`,
    `- Tokens: ${meta.usage.tokens_in} in, ${meta.usage.tokens_out} out; cost: ${cost}${meta.usage.unpriced ? ` (${meta.usage.unpriced} request(s) with no known price)` : ''}`,
    '',
  );
  for (const c of cards) {
    switch (c.kind) {
      case 'text':
        if (c.author === 'user') out.push(`## User — ${when(c.ts)}`, '', c.text, '');
        else if (c.author === 'assistant') out.push(`### Assistant${c.role ? ` (${c.role})` : ''}`, '', c.text, '');
        else out.push(`> ${c.text.split('\n').join('\n> ')}`, '');
        break;
      case 'plan': {
        out.push(`### Plan v${c.version}${c.superseded ? ' (superseded)' : ''}`, '');
        if (c.plan) {
          out.push(`**Goal:** ${c.plan.goal}`, '');
          for (const s of c.plan.steps) {
            const st = c.step_states[String(s.step_number)];
            out.push(`${s.step_number}. ${s.action}${s.files.length ? ` — ${s.files.map((f) => `\`${f}\``).join(', ')}` : ''}${st && st !== 'pending' ? ` _(${st})_` : ''}`);
          }
          if (c.plan.risks.length) out.push('', `**Risks:** ${c.plan.risks.join('; ')}`);
          if (c.plan.prerequisites.length) out.push('', `**Prerequisites:** ${c.plan.prerequisites.join('; ')}`);
        } else {
          out.push('_The plan could not be validated:_', '', fence(c.raw_text ?? ''), ...c.errors.map((e) => `- ${e}`));
        }
        out.push('');
        break;
      }
      case 'question':
        out.push(`### Question (${c.question.severity})`, '', c.question.question, '', c.answer !== undefined ? `**Answer:** ${c.answer}` : `_${c.status}_`, '');
        break;
      case 'tool_call': {
        out.push(`#### Tool \`${c.tool}\` — ${c.summary} — ${c.status}`, '');
        if (c.approval?.diff) out.push(fence(c.approval.diff, 'diff'), '');
        if (c.approval?.command) out.push(fence(c.approval.command, 'sh'), '');
        const result = c.error ?? c.result;
        if (result) out.push(fence(result.length > 4000 ? `${result.slice(0, 4000)}\n… (${result.length - 4000} more characters)` : result), '');
        break;
      }
      case 'error':
        out.push(`> **Error:** ${c.message}${c.detail ? `\n> ${c.detail.split('\n').join('\n> ')}` : ''}`, '');
        break;
      default:
        break;
    }
  }
  return out.join('\n');
}
