import type { ApprovalInfo, ToolCallCard, ToolCallStatus } from '../../../../src/protocol';
import { postToHost } from '../../bridge/vscodeApi';
import { LazyDetails } from '../LazyDetails';
import { visibleBlock, visibleLine } from '../visibleText';

function hasArgs(args: unknown): boolean {
  if (args === undefined || args === null) return false;
  return typeof args !== 'object' || Object.keys(args as object).length > 0;
}

/** Only called when the Arguments section is opened. */
function argsText(args: unknown): string {
  try {
    const s = JSON.stringify(args, null, 2);
    return s.length > 20_000 ? `${s.slice(0, 20_000)}\n… (${s.length - 20_000} more characters)` : s;
  } catch {
    return String(args);
  }
}

const STATUS_LABEL: Record<ToolCallStatus, string> = {
  pending: 'needs approval', approved: 'approved', rejected: 'rejected', refused: 'refused',
  running: 'running', done: 'done', error: 'error',
};

function ApprovalDetails({ a, callId }: { a: ApprovalInfo; callId: string }) {
  const isEdit = a.kind === 'edit' || a.kind === 'create';
  return (
    <div class="approval">
      {a.kind === 'command' ? (
        <>
          <div class="label">Command</div>
          <pre class="command"><code>{visibleBlock(a.command ?? '')}</code></pre>
          {a.cwd && <div class="muted">in <code>{visibleLine(a.cwd)}</code></div>}
        </>
      ) : (
        <div class="approval-target">
          <span class="label">{a.kind === 'create' ? 'New file' : a.kind === 'delete' ? 'Delete' : a.kind === 'outside_workspace' ? 'Outside the workspace' : 'Edit'}</span>{' '}
          {a.path && <code class="file">{visibleLine(a.path)}</code>}{' '}
          {(a.added !== undefined || a.removed !== undefined) && (
            <span class="diffstat" aria-label={`${a.added ?? 0} lines added, ${a.removed ?? 0} removed`}>
              <span class="added">+{a.added ?? 0}</span> <span class="removed">−{a.removed ?? 0}</span>
            </span>
          )}
        </div>
      )}
      {a.real_path && (
        <div class="warn">Real path: <code>{visibleLine(a.real_path)}</code></div>
      )}
      {a.reason && <div class="muted">{a.reason}</div>}
      {a.syntax_checked && <div class="muted">Syntax checked ({visibleLine(a.syntax_checked)}): no new errors.</div>}
      {isEdit && (
        <button type="button" class="secondary" onClick={() => postToHost({ type: 'open_diff', call_id: callId })}>Open diff</button>
      )}
    </div>
  );
}

export function ToolCallCardView({ card }: { card: ToolCallCard }) {
  // A call's card starts as `pending` before anything is asked; the question is asked (and the host
  // waits for the answer) only once the card carries what is asked (`approval`). Approve/Reject
  // before that would be a click nothing waits for, so they appear with the approval details.
  const pending = card.status === 'pending' && card.approval !== undefined;
  const starting = card.status === 'pending' && !pending;
  return (
    <div class="tool">
      <div class="card-head">
        <span class="card-title"><span class="title-glyph" aria-hidden="true">⚙</span> <span class="tool-name">{card.tool}</span> <span class="tool-summary" title={visibleLine(card.summary)}>{visibleLine(card.summary)}</span></span>
        <span class={`chip status-${starting ? 'starting' : card.status}`}>{starting ? 'starting' : STATUS_LABEL[card.status] ?? card.status}</span>
      </div>
      {card.approval && (pending || card.approval.kind === 'command') && <ApprovalDetails a={card.approval} callId={card.call_id} />}
      {pending && (
        <div class="actions">
          <button type="button" class="primary" onClick={() => postToHost({ type: 'approve', call_id: card.call_id })}>Approve</button>
          <button type="button" class="secondary" onClick={() => postToHost({ type: 'reject', call_id: card.call_id })}>Reject</button>
        </div>
      )}
      {(card.revertible || card.reverted || card.revert_note) && !pending && (
        <div class="actions">
          {card.reverted ? (
            <span class="chip">reverted</span>
          ) : card.revertible ? (
            <button type="button" class="secondary" onClick={() => postToHost({ type: 'revert_call', call_id: card.call_id })}>Revert this change</button>
          ) : null}
          {card.revert_note && <span class="muted">{card.revert_note}</span>}
        </div>
      )}
      {card.error && (
        <LazyDetails className="result result-error" initiallyOpen summary="Error" render={() => <pre>{card.error}</pre>} />
      )}
      {card.result !== undefined && card.result !== '' && (
        <LazyDetails className="result" summary="Result" render={() => <pre>{card.result}</pre>} />
      )}
      {hasArgs(card.args) && (
        <LazyDetails className="result" summary="Arguments" render={() => <pre>{argsText(card.args)}</pre>} />
      )}
    </div>
  );
}
