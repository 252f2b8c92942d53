/**
 * "Implement with changes": one step of a plan that has not run, as a small form — its text, the
 * files it may change and the commands it may run (one per line), its check — saved as the next plan
 * version without asking the Planner. The host validates the edit as any plan; its refusal shows
 * under the fields, which keep what was typed. Fields the form does not show (depends_on, reason,
 * tools) are kept by the host as they were.
 */
import { useRef, useState } from 'preact/hooks';
import type { PlanCard, PlanStep } from '../../../../src/protocol';
import { loadState, postToHost, saveState, type StepDraft } from '../../bridge/vscodeApi';
import { focusOnMount } from '../focusOnMount';
import { useView } from '../storeContext';
import { RefusalNote } from '../RefusalNote';

/**
 * What is typed, kept outside the form: the chat draws only the cards near the view, and VS Code lets
 * the whole page go while the view is hidden (the user looking up a path in the Explorer), so the form
 * comes back as it was left. One form at a time: only the latest version of a plan can be edited. The
 * card's time is in its key, as card ids start again in each task.
 */
let kept: StepDraft | undefined = loadState().plan_edit;
const keep = (d: StepDraft | undefined): void => { kept = d; saveState({ plan_edit: d }); };
const draftKey = (card: PlanCard) => card.id + card.ts;

/** The step whose form is open on that card, if any. */
export const editedStep = (card: PlanCard): number | undefined => (kept?.card === draftKey(card) ? kept.step : undefined);

const FIELDS = ['', 'May change (one file per line)', 'May run (one command per line)', 'Check (a command; exit 0 = done)'];
/** The protocol's limits for the step's text and check: the host drops a message over them unanswered. */
const MAX_LENGTH = [2000, undefined, undefined, 500];

export function PlanStepEditor({ card, step, onClose }: { card: PlanCard; step: PlanStep; onClose(): void }) {
  // A form drawn again (scrolled back, view shown again) takes no focus: only one the user just opened does.
  const [opened] = useState(() => kept?.card !== draftKey(card) || kept.step !== step.step_number);
  const [draft, setDraft] = useState((): StepDraft => (opened
    ? { card: draftKey(card), step: step.step_number, fields: [step.action, step.files.join('\n'), (step.commands ?? []).join('\n'), step.check ?? ''] }
    : kept!));
  // Kept from the moment the form opens, each keystroke after.
  if (kept !== draft) keep(draft);
  // The newest draft, ahead of the render: inputs and Ctrl+Enter that come faster than renders must
  // build on each other, not on the draft of the last render (that lost a check typed just before
  // Ctrl+Enter: the form showed it, the saved version and the kept draft did not).
  const latest = useRef(draft);
  const update = (next: StepDraft): void => { latest.current = next; setDraft(next); };
  const busy = useView((s) => s.chat.busy);
  const refusal = useView((s) => s.chat.refusal('edit_plan', card.id));
  const close = (): void => { keep(undefined); onClose(); };
  const lines = (t: string) => t.split('\n').filter((l) => l.trim());
  return (
    <form
      class="revise plan-edit"
      aria-label={`Edit step ${step.step_number}`}
      onSubmit={(e) => {
        e.preventDefault();
        const now = latest.current;
        const [action, files, commands, check] = now.fields;
        update({ ...now, saved: true });
        postToHost({ type: 'edit_plan', card_id: card.id, steps: [{ step_number: step.step_number, action, files: lines(files), commands: lines(commands), check: check.trim() || null }] });
      }}
      onKeyDown={(e) => {
        if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
          e.preventDefault();
          e.currentTarget.requestSubmit();
        } else if (e.key === 'Escape') {
          // Not the chat-wide Escape (Stop).
          e.preventDefault();
          e.stopPropagation();
          close();
        }
      }}
    >
      {FIELDS.map((label, i) => {
        const Field = i === 3 ? 'input' : 'textarea';
        return (
          <label key={i} class="muted">
            {i ? label : `Step ${step.step_number}`}
            <Field ref={i || !opened ? undefined : focusOnMount} rows={2} maxLength={MAX_LENGTH[i]} value={draft.fields[i]} onInput={(e) => { const v = (e.currentTarget as HTMLInputElement).value; update({ ...latest.current, fields: latest.current.fields.map((f, j) => (j === i ? v : f)) }); }} />
          </label>
        );
      })}
      {draft.saved && <RefusalNote text={refusal} />}
      <div class="actions">
        <button type="submit" class="primary" disabled={busy} title="Ctrl/Cmd+Enter">Save as v{card.version + 1}</button>
        <button type="button" class="secondary" title="Escape" onClick={close}>Cancel</button>
      </div>
    </form>
  );
}
