/**
 * "Implement with changes": the plan's steps as editable fields (what to do, the files it may
 * change, the commands it may run, its check), saved as the next plan version without asking the
 * Planner. The host validates the edit as any plan; a refused edit is said here, by Save.
 */
import { useState } from 'preact/hooks';
import type { PlanStep } from '../../../../src/protocol';
import { postToHost } from '../../bridge/vscodeApi';
import { useView } from '../storeContext';
import { RefusalNote } from '../RefusalNote';
import { focusOnMount } from '../focusOnMount';

interface Draft { action: string; files: string; commands: string; check: string }

const lines = (t: string): string[] => t.split('\n').map((l) => l.trim()).filter(Boolean);
const draftOf = (s: PlanStep): Draft => ({ action: s.action, files: s.files.join('\n'), commands: (s.commands ?? []).join('\n'), check: s.check ?? '' });
const same = (a: Draft, b: Draft): boolean =>
  a.action.trim() === b.action.trim() && lines(a.files).join('\n') === lines(b.files).join('\n') && lines(a.commands).join('\n') === lines(b.commands).join('\n') && a.check.trim() === b.check.trim();

export function PlanStepEditor({ cardId, version, steps, onClose }: { cardId: string; version: number; steps: readonly PlanStep[]; onClose(): void }) {
  const [drafts, setDrafts] = useState<Draft[]>(() => steps.map(draftOf));
  const refusal = useView((s) => s.chat.refusal('edit_plan', cardId));
  const changed = steps.map((s, i) => ({ s, d: drafts[i]! })).filter(({ s, d }) => !same(draftOf(s), d));
  const set = (i: number, field: keyof Draft, value: string): void => setDrafts((all) => all.map((d, j) => (j === i ? { ...d, [field]: value } : d)));
  const field = (i: number, key: keyof Draft, label: string, rows: number) => (
    <label class="field">
      <span class="muted">{label}</span>
      <textarea
        ref={i === 0 && key === 'action' ? focusOnMount : undefined}
        aria-label={`Step ${steps[i]!.step_number} ${label}`}
        rows={rows}
        value={drafts[i]![key]}
        onInput={(e) => set(i, key, (e.currentTarget as HTMLTextAreaElement).value)}
      />
    </label>
  );
  return (
    <form
      class="plan-editor"
      aria-label="Edit the plan"
      onKeyDown={(e) => { if (e.key === 'Escape') { e.preventDefault(); e.stopPropagation(); onClose(); } }}
      onSubmit={(e) => {
        e.preventDefault();
        if (!changed.length) return;
        postToHost({
          type: 'edit_plan', card_id: cardId,
          steps: changed.map(({ s, d }) => ({ step_number: s.step_number, action: d.action.trim(), files: lines(d.files), commands: lines(d.commands), check: d.check.trim() || null })),
        });
      }}
    >
      {steps.map((s, i) => (
        <fieldset key={s.step_number} class="plan-editor-step">
          <legend>Step {s.step_number}</legend>
          {field(i, 'action', 'what to do', 2)}
          {field(i, 'files', 'may change (one per line)', 2)}
          {field(i, 'commands', 'may run (one per line)', 1)}
          {field(i, 'check', 'check (exit 0 = done)', 1)}
        </fieldset>
      ))}
      <RefusalNote text={refusal} />
      <div class="actions">
        <button type="submit" class="primary" disabled={!changed.length}>Save as v{version + 1}</button>
        <button type="button" class="secondary" onClick={onClose}>Cancel</button>
        <span class="muted">Checked as any plan; no model is asked.</span>
      </div>
    </form>
  );
}
