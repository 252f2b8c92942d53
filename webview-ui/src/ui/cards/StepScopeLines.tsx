import type { ComponentChildren } from 'preact';
import type { PlanStep } from '../../../../src/protocol';
import { PathLink } from './ToolCallCardView';

/**
 * A step's scope as the plan card shows it — the files it may change, its tools and time, the
 * commands it may run, its check — also on the draft of a plan being written. `check`: the line
 * that says the check once it ran (its command and how it ended), in place of the bare "check:".
 */
export function StepScopeLines({ step: s, check }: { step: PlanStep; check?: ComponentChildren }) {
  return (
    <>
      <div class="step-meta" data-step-scope="files">
        <span class="scope-label">may change:</span>
        {s.files.length ? s.files.map((f) => <code key={f} class="file"><PathLink path={f} /></code>) : <span class="muted">no files</span>}
        {s.tools_needed.length > 0 && <span class="muted">· {s.tools_needed.join(', ')}</span>}
        {s.estimated_time && <span class="muted">≈ {s.estimated_time}</span>}
      </div>
      {(s.commands?.length ?? 0) > 0 && (
        <div class="step-meta" data-step-scope="commands"><span class="scope-label">may run:</span>{s.commands!.map((c) => <code key={c} class="command">$ {c}</code>)}</div>
      )}
      {check ?? (s.check && <div class="step-meta" data-step-scope="check"><span class="scope-label">check:</span> <code>{s.check}</code></div>)}
    </>
  );
}
