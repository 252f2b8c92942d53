import { DiffStat } from './DiffStat';
import { RefusalNote } from '../RefusalNote';
import { sameItems, useView } from '../storeContext';
import { useState } from 'preact/hooks';
import type { SummaryCard } from '../../../../src/protocol';
import { postToHost } from '../../bridge/vscodeApi';
import { visibleLine } from '../visibleText';
import { formatCost, formatTokens } from '../format';
import { exitLabel } from './ToolCallCardView';
import { focusOnMount } from '../focusOnMount';

const OUTCOME: Record<SummaryCard['outcome'], string> = { done: 'finished', stopped: 'stopped', error: 'ended with an error', waiting: 'waiting', limit: 'stopped at the limit' };
const CHANGE: Record<SummaryCard['files'][number]['change'], string> = { modified: 'edited', created: 'created', deleted: 'deleted' };

/**
 * What a run did, when it ends: files the task changed (each opens its diff since the task started,
 * and can be reverted alone), the commands with how they exited, the plan's steps, the cost; and
 * the way on: revert everything, or a new task.
 */
export function SummaryCardView({ card }: { card: SummaryCard }) {
  return card.compact ? <CompactSummary card={card} /> : <FullSummary card={card} />;
}

/** A small run (no plan, one file or one command): one line, its diff a click away. */
function CompactSummary({ card }: { card: SummaryCard }) {
  const f = card.files.at(-1);
  // A command that failed is the run's news: the turn may have ended normally, but it did not "finish" the job.
  const failed = card.commands.some((c) => c.exit && c.exit.outcome !== 'success');
  return (
    <div class="summary" data-summary-compact data-summary-failed={failed ? '' : undefined}>
      ∑ Run {failed && card.outcome === 'done' ? 'ended' : OUTCOME[card.outcome]}
      {f && <> · <code>{visibleLine(f.path)}</code> {CHANGE[f.change]} <button type="button" class="link" onClick={() => postToHost({ type: 'open_file_diff', path: f.path })}>Diff</button></>}
      {card.commands.map((c) => <> · <code>{visibleLine(c.command)}</code>{c.exit && c.exit.outcome !== 'success' && <> <span class={`chip exit-${c.exit.outcome}`} data-exit={c.exit.outcome}>{exitLabel(c.exit)}</span></>}</>)}
    </div>
  );
}

/**
 * Why the run stopped short, in words, with the next moves right there; a failed check's output
 * opens under it (the reason quotes its failure line: the chat says it here, once).
 */
function RunReason({ card, output }: { card: SummaryCard; output?: string }) {
  const [open, setOpen] = useState(false);
  const planId = card.plan_id;
  const step = card.failed_step;
  return (
    <div class="summary-reason" role="status" aria-label="Why the run stopped">
      <p>{card.reason}</p>
      {planId && (
        <div class="actions">
          <button type="button" class="primary" onClick={() => postToHost({ type: 'replan', card_id: planId })}>Replan</button>
          {step !== undefined && <button type="button" class="secondary" onClick={() => postToHost({ type: 'execute_plan', card_id: planId, from_step: step })}>Retry step {step}</button>}
          <button type="button" class="secondary" onClick={() => postToHost({ type: 'review_plan', card_id: planId })}>Review</button>
          {output !== undefined && <button type="button" class="secondary" aria-expanded={open} onClick={() => setOpen(!open)}>Open output</button>}
        </div>
      )}
      {output !== undefined && open && <pre class="raw">{output || '(no output)'}</pre>}
    </div>
  );
}

function FullSummary({ card }: { card: SummaryCard }) {
  const [confirm, setConfirm] = useState<string | null>(null);
  const failedCheck = card.checks?.find((c) => c.step === card.failed_step && c.exit_code !== 0);
  // The check the reason names is said there; the list has the others, each with its result.
  const otherChecks = card.checks?.filter((c) => !(c === failedCheck && card.reason));
  const cost = formatCost(card.cost_usd);
  // A refused revert, by the button that asked: each file's, then the whole task's.
  const fileRefusals = useView((s) => card.files.map((f) => s.chat.refusal('revert_file', f.path)), sameItems);
  const taskRefusal = useView((s) => s.chat.refusal('revert_task'));
  return (
    <div class="summary">
      <div class="card-head">
        <span class="card-title"><span class="title-glyph" aria-hidden="true">∑</span> Run {failedCheck ? 'stopped: a check failed' : OUTCOME[card.outcome]}</span>
        <span class="muted">{card.tokens_in !== undefined ? `${formatTokens(card.tokens_in)} in · ${formatTokens(card.tokens_out ?? 0)} out` : ''}{cost ? ` · ${cost}` : ''}</span>
      </div>
      {card.steps && (
        <p class="summary-steps">
          Steps: <strong>{card.steps.done} of {card.steps.total} done</strong>{(card.steps.unverified ?? 0) > 0 && <span class="warning-text">, {card.steps.unverified} not verified</span>}{card.steps.failed > 0 && <span class="error-text">, {card.steps.failed} failed</span>}{(card.steps.stopped ?? 0) > 0 && <span class="muted">, {card.steps.stopped} stopped</span>}
        </p>
      )}
      {card.reason && <RunReason card={card} {...(failedCheck ? { output: failedCheck.output } : {})} />}
      {otherChecks && otherChecks.length > 0 && (
        <ul aria-label="Checks">
          {otherChecks.map((c) => (
            <li key={c.step} data-check-step={c.step} data-check={c.exit_code === 0 ? 'passed' : 'failed'}>
              Step {c.step} check <code>{visibleLine(c.command)}</code> {c.exit_code === 0 ? 'passed' : 'failed'}
            </li>
          ))}
        </ul>
      )}
      {card.files.length > 0 && (
        <>
          <div class="label">Files changed in this task</div>
          <ul class="summary-files" aria-label="Files changed">
            {card.files.map((f, at) => (
              <li key={f.path} data-file={f.path}>
                <code class="file">{visibleLine(f.path)}</code> <span class="muted">{CHANGE[f.change]}</span>{' '}
                <DiffStat added={f.added} removed={f.removed} />{' '}
                <button type="button" class="link" aria-label={`Diff of ${f.path} since the task started`} onClick={() => postToHost({ type: 'open_file_diff', path: f.path })}>Diff</button>
                {confirm === f.path ? (
                  <span class="confirm-inline" role="group" aria-label={`Revert ${f.path}`} onKeyDown={(e) => { if (e.key === 'Escape') { e.preventDefault(); setConfirm(null); } }}>
                    {' '}Put it back as the task found it?{' '}
                    <button type="button" class="primary" onClick={() => { setConfirm(null); postToHost({ type: 'revert_file', path: f.path }); }}>Revert</button>{' '}
                    <button type="button" class="secondary" ref={focusOnMount} onClick={() => setConfirm(null)}>Cancel</button>
                  </span>
                ) : (
                  <button type="button" class="link" aria-label={`Revert ${f.path}…`} onClick={() => setConfirm(f.path)}>Revert…</button>
                )}
                <RefusalNote text={fileRefusals[at]} />
              </li>
            ))}
          </ul>
        </>
      )}
      {card.commands.length > 0 && (
        <>
          <div class="label">Commands run</div>
          <ul class="summary-commands" aria-label="Commands run">
            {card.commands.map((c, i) => (
              <li key={i}>
                <code>{visibleLine(c.command)}</code>{' '}
                {c.exit && <span class={`chip exit-${c.exit.outcome}`} data-exit={c.exit.outcome}>{exitLabel(c.exit)}</span>}
              </li>
            ))}
          </ul>
        </>
      )}
      {confirm === '*' ? (
        <div class="confirm" role="group" aria-label="Revert every file" onKeyDown={(e) => { if (e.key === 'Escape') { e.preventDefault(); setConfirm(null); } }}>
          <span>Put back {card.files.map((f) => f.path).join(', ')} as the task found them? Files you edited since are left alone and the revert is refused.</span>
          <div class="actions">
            <button type="button" class="primary" onClick={() => { setConfirm(null); postToHost({ type: 'revert_task' }); }}>Revert all</button>
            <button type="button" class="secondary" ref={focusOnMount} onClick={() => setConfirm(null)}>Cancel</button>
          </div>
        </div>
      ) : (
        <div class="actions">
          {card.files.length > 1 && <button type="button" class="secondary" onClick={() => setConfirm('*')}>Revert all…</button>}
          <button type="button" class="secondary" onClick={() => postToHost({ type: 'new_task' })}>New task</button>
        </div>
      )}
      {card.files.length > 1 && <RefusalNote text={taskRefusal} />}
    </div>
  );
}
