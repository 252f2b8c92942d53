/**
 * Readable output for people: the assistant's text as it streams, one line per tool call when it
 * settles, plans and questions spelled out; errors go to stderr.
 */
import { hookNoteLines, instructionsHeadline, type AmendmentOutcome, type Card, type HostEvent, type PlanCard, type ToolCallCard } from '../protocol';
import { CardStore } from '../core/events';

const FINAL = new Set(['done', 'error', 'refused', 'rejected']);
const MARK: Record<string, string> = { done: '✓', error: '✗', refused: '⊘', rejected: '✗' };

export class TextPrinter {
  private readonly store = new CardStore();
  private atLineStart = true;
  private readonly printed = new Set<string>();
  /** Per plan draft, how many of its steps were printed. */
  private readonly draftShown = new Map<string, number>();

  constructor(private readonly out: (s: string) => void, private readonly err: (s: string) => void) {}

  private write(s: string): void {
    if (!s) return;
    this.out(s);
    this.atLineStart = s.endsWith('\n');
  }

  private line(s: string): void {
    if (!this.atLineStart) this.write('\n');
    this.write(`${s}\n`);
  }

  handle(e: HostEvent): void {
    this.store.apply(e);
    switch (e.type) {
      case 'card_added':
        this.added(e.card);
        break;
      case 'text_appended': {
        const c = this.store.get(e.id);
        // A step running beside others prints its text whole, labelled, when it ends (streams would interleave).
        if (c?.kind === 'text' && c.author === 'assistant' && !c.branch) this.write(e.text);
        break;
      }
      case 'card_patched': {
        const c = this.store.get(e.id);
        if (c?.kind === 'text' && c.branch && c.author === 'assistant' && e.patch.streaming === false && c.text.trim()) this.line(`[step ${c.step}] ${c.text.trim()}`);
        // The final patch carries the result or the error (a bare status patch may come first).
        const settled = 'result' in e.patch || 'error' in e.patch;
        if (c?.kind === 'tool_call' && settled && FINAL.has(c.status) && !this.printed.has(c.id)) this.toolLine(c);
        if (c?.kind === 'question' && c.status === 'answered' && e.patch.answer !== undefined) this.line(`  → ${String(e.patch.answer)}`);
        if (c?.kind === 'plan_draft') this.draftSteps(c);
        break;
      }
      case 'role_changed':
        this.line(`[role: ${e.role}${e.reason ? ` — ${e.reason}` : ''}]`);
        break;
      case 'step_started':
        this.line(`[step ${e.step_number} started]`);
        break;
      case 'step_done':
        this.line(`[step ${e.step_number} done]`);
        break;
      case 'step_failed':
        this.line(`[step ${e.step_number} failed${e.reason ? `: ${e.reason}` : ''}]`);
        break;
      case 'step_stopped':
        this.line(`[step ${e.step_number} stopped]`);
        break;
      case 'step_unverified':
        this.line(`[step ${e.step_number} unverified: ${e.reason}]`);
        break;
      case 'review_verdict': {
        const what = e.step_number !== undefined ? `step ${e.step_number}` : `plan v${e.version}`;
        if (!e.verdict) {
          this.line(`[Reviewer on ${what}: no valid verdict]`);
          break;
        }
        this.line(`[Reviewer on ${what}: ${e.verdict.verdict}] ${e.verdict.reasons.join(' ')}`);
        for (const c of e.verdict.concerns) this.line(`  ⚑ ${c.step != null ? `step ${c.step}: ` : ''}${c.text}${c.file ? ` (${c.file}${c.line ? `:${c.line}` : ''})` : ''}`);
        break;
      }
      case 'plan_version':
        if (e.changes) {
          const c = e.changes;
          this.line(`[plan v${e.version}${e.replan_of !== undefined ? ` replans v${e.replan_of}` : ''}: ${c.added.length} added, ${c.removed.length} removed, ${c.edited.length} edited since v${c.from_version}]`);
        }
        break;
      case 'amendment':
        this.line(`[amendment, step ${e.amendment.step_number}: ${e.amendment.text} — ${AMENDMENT_WORD[e.amendment.outcome]}${e.amendment.change ? ` (${e.amendment.change})` : ''}]`);
        break;
      case 'turn_ended':
        if (!this.atLineStart) this.write('\n');
        break;
      case 'agent_state':
        // Progress while nothing prints (a slow first token, a long tool call): to stderr, so stdout stays the answer.
        if (e.detail) this.err(`… ${e.detail}\n`);
        break;
      default:
        break;
    }
  }

  /**
   * A plan a slow model is still writing: each step on stderr as it arrives whole (stdout stays the
   * answer; the validated plan is printed when it is published). A rewrite (a repair) starts again at step 1.
   */
  private draftSteps(c: Extract<Card, { kind: 'plan_draft' }>): void {
    if (c.state !== 'writing' && c.state !== 'checking') return;
    let shown = this.draftShown.get(c.id) ?? 0;
    if (c.steps.length < shown) shown = 0;
    for (const d of c.steps.slice(shown)) {
      const action = d.step?.action ?? d.action ?? '(no action)';
      this.err(`… plan step ${d.at}: ${action}${d.problems?.length ? ` — not valid: ${d.problems.join('; ')}` : ''}\n`);
    }
    this.draftShown.set(c.id, c.steps.length);
  }

  private added(card: Card): void {
    switch (card.kind) {
      case 'text':
        if (card.author === 'assistant' && card.branch) break;
        if (card.author === 'assistant') {
          if (!this.atLineStart) this.write('\n');
          this.write(card.text);
        } else if (card.author === 'system' && (card.note === 'hook' || card.note === 'hook_failed')) this.err(`» ${card.text}\n`);
        else if (card.author === 'system') this.line(`» ${card.text}`);
        // What the prompt's @mentions and --attach attached, one line each (their contents went to the model).
        else if (card.author === 'user') for (const a of card.attachments ?? []) if (a.kind !== 'context') this.err(`📎 @${a.label}${a.note ? ` — ${a.note}` : ''}\n`);
        break;
      case 'usage':
        // Only an estimate is worth a line: the endpoint's own counts are in --json and history.
        if (card.estimated) this.err(`… usage estimated by Tandem (the endpoint reported none): ~${card.tokens_in} in, ~${card.tokens_out} out\n`);
        break;
      case 'tool_call':
        if (FINAL.has(card.status)) this.toolLine(card);
        break;
      case 'plan':
        this.line(formatPlan(card));
        break;
      case 'question':
        this.line(`? ${card.question.question}\n${card.question.options.map((o) => `  - ${o.value}: ${o.label}${o.value === card.question.default ? ' (default)' : ''}`).join('\n')}`);
        break;
      case 'instructions':
        // Which repository files steer the agent, on stderr: stdout stays the answer.
        this.err(`» ${instructionsHeadline(card)}: ${card.files.map((f) => f.path).join(', ')}${card.cut ? `\n  ${card.cut}` : ''}\n`);
        break;
      case 'facts':
        // Which facts went to the model, and which were left out as stale, on stderr (like the instructions).
        this.err(`» Facts sent to the ${card.role}: ${card.sent.length ? card.sent.map((f) => `${f.id} "${f.text}" [${f.cited}]`).join('; ') : 'none'}${card.left_out ? ` (${card.left_out} more did not fit)` : ''}\n${card.stale.map((f) => `  stale, not sent: ${f.id} "${f.text}" — ${f.why}\n`).join('')}`);
        break;
      case 'learned':
        this.err(card.refused
          ? `» Not learned: "${card.fact.text}" — ${card.refused}\n`
          : `» Learned: ${card.fact.text} — from ${card.fact.cited}${card.fact.id ? ` (forget it: tandem facts rm ${card.fact.id})` : ''}\n`);
        break;
      case 'error':
        if (!this.atLineStart) this.write('\n');
        this.err(`error: ${card.message}\n${card.detail && card.detail !== card.message ? `  ${card.detail}\n` : ''}`);
        break;
      default:
        break;
    }
  }

  private toolLine(c: ToolCallCard): void {
    this.printed.add(c.id);
    const why = c.status === 'done' ? '' : ` — ${c.status}${c.error ? `: ${firstLine(c.error)}` : ''}`;
    this.line(`${MARK[c.status] ?? '•'} ${c.step !== undefined ? `[step ${c.step}] ` : ''}${c.summary}${why}`);
    // What the user's hooks did to the call, on stderr as the chat shows it on the card.
    for (const l of c.hook ? hookNoteLines(c.hook) : []) this.err(`  ${l.warning ? '⚠' : '»'} ${l.text}\n`);
  }
}

function firstLine(s: string): string {
  const l = s.split('\n')[0] ?? '';
  return l.length > 200 ? `${l.slice(0, 200)}…` : l;
}

export function formatPlan(card: PlanCard): string {
  if (!card.plan) return `Plan v${card.version} (could not be validated):\n${card.raw_text ?? ''}\n${card.errors.map((e) => `  ! ${e}`).join('\n')}`;
  const p = card.plan;
  const lines = [`Plan v${card.version}: ${p.goal}`];
  for (const s of p.steps) lines.push(`  ${s.step_number}. ${s.action}${s.files.length ? ` [${s.files.join(', ')}]` : ''}`);
  if (p.risks.length) lines.push(`  Risks: ${p.risks.join('; ')}`);
  if (p.prerequisites.length) lines.push(`  Prerequisites: ${p.prerequisites.join('; ')}`);
  lines.push(`  Estimated: ${p.estimated_total_time}`);
  return lines.join('\n');
}

const AMENDMENT_WORD: Record<AmendmentOutcome, string> = {
  asked: 'asking', allowed_once: 'allowed once', added: 'added to the plan', rejected: 'rejected', refused: 'refused: nobody can allow it here',
};
