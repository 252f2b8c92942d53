import type { Amendment } from '../../../../src/protocol';
import { postToHost } from '../../bridge/vscodeApi';
import { takeDraftAsNote, type ViewStore } from '../../state/viewStore';
import { useViewStore } from '../storeContext';
import { visibleLine } from '../visibleText';

/**
 * An action outside the executing plan step's scope: the card says so in words and asks the
 * person who approved the plan — Allow once, Add to the plan (a new version; the card then says what
 * changed) or Reject. The host decides nothing from this view but the answer; the rule is enforced
 * in the core at dispatch.
 */
const OUTCOME: Record<Amendment['outcome'], string> = {
  asked: 'Amendment — needs your decision',
  allowed_once: 'Amendment allowed once',
  added: 'Amendment added to the plan',
  rejected: 'Amendment rejected',
  refused: 'Amendment refused: nobody could decide it here',
};

function what(a: Amendment): string {
  return [...(a.add.files ?? []).map((f) => `files: ${f}`), ...(a.add.commands ?? []).map((c) => `commands: ${c}`)].join('; ');
}

function decide(store: ViewStore, callId: string, choice: 'once' | 'plan' | 'reject'): void {
  const note = takeDraftAsNote(store);
  if (choice === 'reject') postToHost(note ? { type: 'reject', call_id: callId, reason: note } : { type: 'reject', call_id: callId });
  else postToHost({ type: 'approve', call_id: callId, ...(note ? { note } : {}), ...(choice === 'plan' ? { add_to_plan: true } : {}) });
}

export function AmendmentBlock({ a, callId, pending }: { a: Amendment; callId: string; pending: boolean }) {
  const store = useViewStore();
  const addable = what(a);
  return (
    <div class={`amendment amendment-${a.outcome}`} data-amendment={pending ? 'asked' : a.outcome}>
      <div class="amendment-head"><span aria-hidden="true">⚑</span> {OUTCOME[pending ? 'asked' : a.outcome]}</div>
      <div class="amendment-text">{visibleLine(a.text)} <span class="muted">(plan v{a.plan_version})</span></div>
      {a.outcome === 'added' && a.change && (
        <div class="amendment-change">Plan v{a.added_version}: <code>{visibleLine(a.change)}</code></div>
      )}
      {pending && (
        <div class="actions">
          <button type="button" class="primary" onClick={() => decide(store, callId, 'once')}>Allow once</button>
          {addable && (
            <button type="button" class="secondary" title={`A new plan version: step ${a.step_number} ${addable}`} onClick={() => decide(store, callId, 'plan')}>Add to the plan</button>
          )}
          <button type="button" class="secondary" onClick={() => decide(store, callId, 'reject')}>Reject</button>
        </div>
      )}
    </div>
  );
}
