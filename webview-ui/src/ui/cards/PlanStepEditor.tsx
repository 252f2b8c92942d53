/**
 * "Implement with changes": one step of a plan that has not run, as a small form — its text, the
 * files it may change and the commands it may run (one per line), its check, the steps it needs —
 * saved as the next plan version without asking the Planner; or a new step, added after another;
 * or Remove. The host validates the edit as any plan (a cycle is refused naming its steps); its
 * refusal shows under the fields, which keep what was typed. Fields the form does not show (reason,
 * tools) are kept by the host as they were. Step numbers are the card's.
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

/** The step whose form is open on that card, if any (0: a new step). */
export const editedStep = (card: PlanCard): number | undefined => (kept?.card === draftKey(card) ? kept.step : undefined);

/** The plan's own limits, shown where they apply (the host refuses more). */
const MAX_FILES = 50;
const MAX_COMMANDS = 20;
const FIELDS = ['', `May change (one file per line, up to ${MAX_FILES})`, `May run (one command per line, up to ${MAX_COMMANDS})`, 'Check (a command; exit 0 = done)', 'Needs steps first (numbers, e.g. 1, 3; empty: none)'];
/** The protocol's limits for the step's text and check: the host drops a message over them unanswered. */
const MAX_LENGTH = [2000, undefined, undefined, 500, 200];

/** The steps a step needs as the card shows them: its depends_on, or by default the step before it. */
export function needsOf(plan: readonly PlanStep[], step: PlanStep): number[] {
  if (step.depends_on) return step.depends_on;
  const at = plan.indexOf(step);
  return at > 0 ? [plan[at - 1]!.step_number] : [];
}

const lines = (t: string) => t.split('\n').filter((l) => l.trim());

/** The "needs" box as step numbers, or why it cannot be read. */
function parseNeeds(text: string): number[] | string {
  const words = text.split(/[\s,]+/).filter(Boolean);
  const bad = words.find((w) => !/^\d{1,2}$/.test(w) || Number(w) < 1);
  return bad ? `"${bad}" is not a step number` : words.map(Number);
}

export function PlanStepEditor({ card, step, after, onClose }: { card: PlanCard; step?: PlanStep; after?: number; onClose(): void }) {
  const steps = card.plan?.steps ?? [];
  const number = step?.step_number ?? 0;
  const needsShown = step ? needsOf(steps, step).join(', ') : '';
  // A form drawn again (scrolled back, view shown again) takes no focus: only one the user just opened does.
  const [opened] = useState(() => kept?.card !== draftKey(card) || kept.step !== number);
  const [draft, setDraft] = useState((): StepDraft => (opened
    ? {
      card: draftKey(card), step: number,
      fields: step ? [step.action, step.files.join('\n'), (step.commands ?? []).join('\n'), step.check ?? '', needsShown] : ['', '', '', '', ''],
      ...(step ? {} : { after: after ?? steps.length }),
    }
    // A draft kept by an older build has no "needs" box: it reads as unchanged.
    : { ...kept!, fields: kept!.fields.length >= 5 ? kept!.fields : [...kept!.fields, needsShown] }));
  // Kept from the moment the form opens, each keystroke after.
  if (kept !== draft) keep(draft);
  // The newest draft, ahead of the render: inputs and Ctrl+Enter that come faster than renders must
  // build on each other, not on the draft of the last render (that lost a check typed just before
  // Ctrl+Enter: the form showed it, the saved version and the kept draft did not).
  const latest = useRef(draft);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const update = (next: StepDraft): void => { latest.current = next; setDraft(next); };
  const busy = useView((s) => s.chat.busy);
  const refusal = useView((s) => s.chat.refusal('edit_plan', card.id));
  const close = (): void => { keep(undefined); onClose(); };
  const send = (edit: { steps?: unknown[]; remove?: number[]; insert?: unknown[] }): void => {
    setProblem(undefined);
    update({ ...latest.current, saved: true });
    postToHost({ type: 'edit_plan', card_id: card.id, steps: [], ...edit } as never);
  };
  const newAt = draft.after ?? steps.length;
  return (
    <form
      class="revise plan-edit"
      aria-label={step ? `Edit step ${number}` : 'New step'}
      onSubmit={(e) => {
        e.preventDefault();
        const now = latest.current;
        const [action, files, commands, check, needsText = needsShown] = now.fields;
        const fileList = lines(files);
        const commandList = lines(commands);
        const needs = parseNeeds(needsText);
        // Said here, before anything is sent: the host would drop a message over the protocol's limits unanswered.
        const wrong = fileList.length > MAX_FILES ? `at most ${MAX_FILES} files (${fileList.length} listed)`
          : commandList.length > MAX_COMMANDS ? `at most ${MAX_COMMANDS} commands (${commandList.length} listed)`
            : typeof needs === 'string' ? `Needs: ${needs}` : undefined;
        if (wrong) { setProblem(wrong); return; }
        const fields = {
          action, files: fileList, commands: commandList, check: check.trim() || null,
          // Unchanged, the step keeps what it had (the default "the step before" stays a default).
          ...(needsText.trim() === needsShown ? {} : { depends_on: needs as number[] }),
        };
        if (step) send({ steps: [{ step_number: number, ...fields }] });
        else send({ insert: [{ after: now.after ?? steps.length, ...fields }] });
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
      {!step && (
        <label class="muted">
          After step <input class="plan-edit-after" type="number" min={0} max={steps.length} value={newAt} onInput={(e) => { const v = Number((e.currentTarget as HTMLInputElement).value); update({ ...latest.current, after: Number.isFinite(v) ? v : steps.length }); }} />
        </label>
      )}
      {FIELDS.map((label, i) => {
        const Field = i >= 3 ? 'input' : 'textarea';
        return (
          <label key={i} class="muted">
            {i ? label : step ? `Step ${number}` : 'New step'}
            <Field ref={i || !opened ? undefined : focusOnMount} rows={2} maxLength={MAX_LENGTH[i]} value={draft.fields[i] ?? ''} onInput={(e) => { const v = (e.currentTarget as HTMLInputElement).value; update({ ...latest.current, fields: latest.current.fields.map((f, j) => (j === i ? v : f)) }); }} />
          </label>
        );
      })}
      {problem && <div class="refusal" role="alert">{problem}</div>}
      {draft.saved && !problem && <RefusalNote text={refusal} />}
      <div class="actions">
        <button type="submit" class="primary" disabled={busy} title="Ctrl/Cmd+Enter">{step ? `Save as v${card.version + 1}` : `Add as v${card.version + 1}`}</button>
        {step && steps.length > 1 && <button type="button" class="secondary" disabled={busy} onClick={() => send({ remove: [number] })}>Remove step {number}</button>}
        <button type="button" class="secondary" title="Escape" onClick={close}>Cancel</button>
      </div>
    </form>
  );
}
