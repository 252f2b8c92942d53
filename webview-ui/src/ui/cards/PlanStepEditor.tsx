/**
 * "Implement with changes": the plan's steps as editable text — each step's action, the files it
 * may change, the commands it may run and its check, as JSON — saved as the next plan version
 * without asking the Planner. One text box keeps the webview within its size budget; the host
 * validates the edit as any plan (and refuses one that changes nothing) and says why on an error
 * card; text that is not JSON is said on the box itself.
 */
import { useState } from 'preact/hooks';
import type { PlanStep } from '../../../../src/protocol';
import { postToHost } from '../../bridge/vscodeApi';

type Edit = { step: number; action: string; files: string[]; commands: string[]; check: string | null };

/** Opened and closed by the card's Edit steps. */
export function PlanStepEditor({ cardId, version, steps }: { cardId: string; version: number; steps: readonly PlanStep[] }) {
  const [text, setText] = useState(() => `[\n${steps.map((s) => JSON.stringify({ step: s.step_number, action: s.action, files: s.files, commands: s.commands ?? [], check: s.check ?? null } satisfies Edit)).join(',\n')}\n]`);
  return (
    <form
      class="plan-editor"
      aria-label="Edit the plan"
      onSubmit={(e) => {
        e.preventDefault();
        const box = e.currentTarget.querySelector('textarea')!;
        try {
          const edits = JSON.parse(text) as Edit[];
          postToHost({ type: 'edit_plan', card_id: cardId, steps: edits.map((s) => ({ step_number: s.step, action: String(s.action), files: s.files.map(String), commands: s.commands.map(String), check: s.check ? String(s.check) : null })) });
        } catch (err) {
          box.setCustomValidity(String(err));
          box.reportValidity();
        }
      }}
    >
      <textarea aria-label="The steps" rows={9} value={text} onInput={(e) => { e.currentTarget.setCustomValidity(''); setText(e.currentTarget.value); }} />
      <button type="submit" class="primary">Save as v{version + 1}</button>
    </form>
  );
}
