import type { ComponentChildren } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { RoleInfo } from '../../../src/protocol';
import { roleAccess } from '../../../src/protocol/roleTable';
import { postToHost } from '../bridge/vscodeApi';
import type { TurnOutcome } from '../state/chatStore';
import { planProgress, type PlanProgress } from '../state/planProgress';
import { lastCallUsage } from '../state/foldedCards';
import { revertibleFiles } from '../state/headerFacts';
import type { ContextMeter, ModelChoice } from '../state/viewStore';
import { useView } from './storeContext';
import { AgentStateChip } from './AgentStateChip';
import { formatTokens, formatUsage } from './format';
import { focusOnMount } from './focusOnMount';
import { RefusalNote } from './RefusalNote';

export type { ContextMeter, ModelChoice } from '../state/viewStore';

/**
 * The model in force for this role, with the endpoint's other models to pick from (the choice is
 * this role's model setting). Without a list from the endpoint it shows the model alone.
 */
function ModelPicker({ role, models }: { role: RoleInfo; models: ModelChoice }) {
  const current = models.byRole[role.id] ?? '';
  const options = [...new Set([current, ...models.available].filter((m) => m !== ''))];
  return (
    <label class="model-picker" title={`The ${role.label}'s model (each role has its own; the list is the endpoint's)`}>
      <span class="muted">Model</span>
      <select
        aria-label={`Model for the ${role.label}`}
        value={current}
        disabled={options.length < 2}
        onChange={(e) => {
          const model = (e.target as HTMLSelectElement).value;
          if (model && model !== current) postToHost({ type: 'set_model', role: role.id, model });
        }}
      >
        {options.map((m) => <option key={m} value={m}>{m}</option>)}
      </select>
    </label>
  );
}

/** "Context 12k / 128k (9%)" with a bar that turns to warning past three quarters and to error past nine tenths. */
function ContextMeterView({ m }: { m: ContextMeter }) {
  const pct = Math.min(100, Math.round((m.used / m.window) * 100));
  const level = pct >= 90 ? 'high' : pct >= 75 ? 'mid' : 'low';
  // An assumed window is said here, once per model, not as a paragraph at the start of each task.
  const how = m.known ? '' : ` The endpoint reports no window for ${m.model}: Tandem assumes ${m.window.toLocaleString('en-US')} tokens (~) and condenses early. Set the context window setting to your server's.`;
  return (
    <span
      class={`context-meter meter-${level}`}
      role="meter"
      aria-label="Context window used"
      aria-valuemin={0}
      aria-valuemax={m.window}
      aria-valuenow={m.used}
      data-context-used={m.used}
      data-context-window={m.window}
      title={`The last request to ${m.model} used about ${m.used.toLocaleString('en-US')} of its ${m.window.toLocaleString('en-US')}-token window. Past the window Tandem condenses the oldest turns.${how}`}
    >
      <span class="muted">Context</span>
      <span class="meter-bar" aria-hidden="true"><span style={{ width: `${Math.max(2, pct)}%` }} /></span>
      <span>{formatTokens(m.used)} / {m.known ? '' : '~'}{formatTokens(m.window)} ({pct}%)</span>
    </span>
  );
}

const STEP_MARK: Record<string, string> = { pending: '○', running: '▶', done: '✓', failed: '✗', stopped: '■', unverified: '?' };

/**
 * The run's details on the header's one line: "3/5 · Update the tests" while a plan runs (no bar
 * under it: the count says as much), the model while a plain turn runs. Opened, it drops over the
 * chat (nothing below moves) with every step's state and the run's details (model, context, usage).
 */
function RunDetails({ p, head, children }: { p?: PlanProgress | null; head: string; children: ComponentChildren }) {
  return (
    <details class="progress" aria-label={p ? 'Plan progress' : 'Turn details'} data-plan-progress={p ? `${p.position}/${p.total}` : undefined} data-running-steps={p && p.running.length > 1 ? p.running.map((r) => r.n).join(',') : undefined}>
      <summary>
        {p && p.running.length > 1
          // Steps side by side: every running step by number first (a narrow bar cuts the actions, not the numbers).
          ? <><span class="progress-count">Steps {p.running.map((r) => r.n).join(', ')} of {p.total}</span> · <span class="progress-action">{p.running.map((r) => r.action).join(' · ')}</span></>
          : p ? <><span class="progress-count">{p.position}/{p.total}</span> · <span class="progress-action">{p.action}</span></> : head}
      </summary>
      <div class="progress-more">
        {p && (
          <ol class="progress-steps">
            {p.steps.map((s) => (
              <li key={s.n} data-step-state={s.state} class={`step-${s.state}`}><span aria-hidden="true">{STEP_MARK[s.state]}</span> {s.action} <span class="muted">({s.state})</span></li>
            ))}
          </ol>
        )}
        {children}
      </div>
    </details>
  );
}

const OUTCOME_LABEL: Partial<Record<TurnOutcome, string>> = { stopped: 'stopped', error: 'ended with an error', limit: 'stopped at the tool-call limit' };

// Long enough to read once (it fades out over its last second, styles.css .notice; keyed by its tick so a new note fades anew); a run's header is one line again after it.
const NOTICE_MS = 4_000;

/** The last model call, for the usage line's hover. */
const lastCallText = (cards: Parameters<typeof lastCallUsage>[0]) => lastCallUsage(cards, (u) => `${u.model} · ${u.role} · ${formatUsage(u)} · ${(u.latency_ms / 1000).toFixed(1)} s`);

/**
 * The chat's header: everything it shows comes from the view store (the chat's frame, the models
 * and the context meter the host sent), each through its selector.
 */
export function Header() {
  const frame = useView((s) => s.chat);
  const models = useView((s) => s.models);
  const meter = useView((s) => s.meter);
  const { role, next, agentState, agentDetail, turn, task, notice, noticeTick, lastOutcome, revertible } = frame.header;
  const busy = frame.busy;
  const revertRefusal = frame.refusal('revert_task');
  // Derived from the cards once per frame, not once per render.
  const progress = useMemo(() => planProgress(frame.cards), [frame]);
  const lastCall = useMemo(() => lastCallText(frame.cards), [frame]);
  const outcomeReason = useMemo(() => {
    const last = frame.cards.at(-1);
    return last?.kind === 'summary' ? (last as { reason?: string }).reason : undefined;
  }, [frame]);
  const [confirmRevert, setConfirmRevert] = useState(false);
  useEffect(() => { if (revertible === 0) setConfirmRevert(false); }, [revertible]);
  // Why the role changed matters when it happens; after a while it is just noise.
  const [shownTick, setShownTick] = useState(-1);
  useEffect(() => {
    if (!notice) return;
    setShownTick(noticeTick);
    const t = setTimeout(() => setShownTick(-1), NOTICE_MS);
    return () => clearTimeout(t);
  }, [noticeTick]);
  // The model, context and usage lines: under the role's row when idle, in a drop-down of the row while a turn or a plan runs.
  const running = progress || busy;
  const details = <>
    {(models || meter) && (
      <div class="header-row model-row">
        {models && <ModelPicker role={role} models={models} />}
        {meter && <ContextMeterView m={meter} />}
      </div>
    )}
    {(turn || task) && (
      <div class="usage-line muted" aria-label="Usage">
        {turn && <span title={lastCall ? `This turn. Last call: ${lastCall}` : 'This turn'}>Turn: {formatUsage(turn)}</span>}
        {task && <span title="This task">Task: {formatUsage(task)}</span>}
      </div>
    )}
  </>;
  return (
    <header class="header">
      <div class="header-row">
        <button
          type="button"
          class={`role role-${role.tone}`}
          aria-label="Role"
          title={`Role: ${role.label} (${roleAccess(role)}). Click to switch to ${next.label}.`}
          data-role={role.id}
          onClick={() => postToHost({ type: 'set_role', role: next.id })}
        >
          <span aria-hidden="true">{role.glyph}</span> {role.label}
        </button>
        <AgentStateChip state={agentState} detail={agentDetail} />
        {running && <RunDetails p={progress} head={models?.byRole[role.id] ?? meter?.model ?? 'Details'}>{details}</RunDetails>}
        {/* At the row's right end (margin-left: auto); hidden while a run goes (it could not revert then): the run's line keeps its room. */}
        {revertible > 0 && !confirmRevert && !busy && (
          <button
            type="button"
            class="secondary revert-task"
            title={`Undo every change the agent made in this task (${revertible})`}
            onClick={() => setConfirmRevert(true)}
          >
            <span aria-hidden="true">↶</span> Revert task
          </button>
        )}
      </div>
      {/* Under the row, never in it: a long reason would wrap Revert task onto another row. */}
      {agentState === 'idle' && lastOutcome && (outcomeReason
        // One line, the whole reason on hover: the run's summary card says it in full, and at 300 px it took three.
        ? <div class="muted outcome-reason" data-turn-outcome="reason" title={outcomeReason}>{outcomeReason}</div>
        : OUTCOME_LABEL[lastOutcome] && <div class="muted" data-turn-outcome={lastOutcome}>Last turn {OUTCOME_LABEL[lastOutcome]}</div>)}
      {!confirmRevert && revertible > 0 && <RefusalNote text={revertRefusal} />}
      {confirmRevert && revertible > 0 && (
        <div
          class="confirm"
          role="group"
          aria-label="Revert the whole task"
          // Escape here cancels the confirmation; it must not reach the chat-wide Escape (Stop).
          onKeyDown={(e) => { if (e.key === 'Escape') { e.preventDefault(); setConfirmRevert(false); } }}
        >
          <span>Revert {revertible === 1 ? 'the change' : `all ${revertible} changes`} the agent made in this task? Files edited since are left alone and the revert is refused.</span>
          {revertibleFiles(frame.cards).length > 0 && (
            <ul class="revert-files" aria-label="Files to revert">{revertibleFiles(frame.cards).map((f) => <li key={f}><code>{f}</code></li>)}</ul>
          )}
          <div class="actions">
            <button
              type="button"
              class="primary"
              disabled={busy}
              onClick={() => {
                setConfirmRevert(false);
                postToHost({ type: 'revert_task' });
              }}
            >
              Revert all
            </button>
            <button type="button" class="secondary" ref={focusOnMount} onClick={() => setConfirmRevert(false)}>Cancel</button>
          </div>
        </div>
      )}
      {!running && details}
      {notice && shownTick === noticeTick && <div key={noticeTick} class="notice" role="status">Switched to the {role.label}: {notice}</div>}
    </header>
  );
}
