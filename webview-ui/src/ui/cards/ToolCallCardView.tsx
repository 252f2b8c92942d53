import { ApprovalFiles } from './ApprovalFiles';
import type { HookNote, ApprovalInfo, CommandExit, ToolCallCard, ToolCallStatus } from '../../../../src/protocol';
import { hookNoteLines } from '../../../../src/protocol/hookNoteLines';
import { toolCallDisplay } from '../../../../src/protocol/toolCallDisplay';
import { postToHost } from '../../bridge/vscodeApi';
import { takeDraftAsNote, type ViewStore } from '../../state/viewStore';
import { toolHeadline, type Headline } from './toolHeadline';
import { LazyDetails } from '../LazyDetails';
import { visibleBlock, visibleLine } from '../visibleText';
import { AmendmentBlock } from './AmendmentBlock';
import { useState } from 'preact/hooks';
import { focusOnMount } from '../focusOnMount';
import { useView, useViewStore } from '../storeContext';
import { RefusalNote } from '../RefusalNote';
import { FailedOutput } from './CommandOutput';
import { DiffStat } from './DiffStat';

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
  pending: 'needs approval', approved: 'approved', rejected: 'Rejected', refused: 'refused',
  running: 'running', done: 'done', error: 'error', stopped: 'stopped',
};
/** A plan step's check is a verdict on the step: it passed or failed, it was not "done" or an "error". */
const CHECK_LABEL: Partial<Record<ToolCallStatus, string>> = { done: 'check passed', error: 'check failed' };

/** How a command ended, in words: a non-zero exit is not "done". */
export function exitLabel(exit: CommandExit): string {
  switch (exit.outcome) {
    case 'success': return 'success';
    case 'failed': return `failed (exit ${exit.code ?? '?'})`;
    case 'killed': return 'killed';
    case 'timed_out': return 'timed out';
  }
}

/** Approve / Reject of a waiting call; what the user typed in the composer goes with either. */
function decide(store: ViewStore, callId: string, approve: boolean): void {
  const note = takeDraftAsNote(store);
  if (approve) postToHost(note ? { type: 'approve', call_id: callId, note } : { type: 'approve', call_id: callId });
  else postToHost(note ? { type: 'reject', call_id: callId, reason: note } : { type: 'reject', call_id: callId });
}

/** "Read src/cart.ts" with the path as a link that opens the file. */
function HeadlineText({ h }: { h: Headline }) {
  return (
    <>
      <span class="verb">{h.verb}</span>
      {h.path && <>{' '}<PathLink path={h.path} split /></>}
      {h.rest && <>{' '}{h.restIsCode ? <code class="headline-rest">{visibleLine(h.rest)}</code> : <span class="headline-rest">{visibleLine(h.rest)}</span>}</>}
      {h.suffix && <span class="headline-suffix"> — {h.suffix}</span>}
    </>
  );
}

/**
 * A path cut for a narrow title: its folder gives way (an ellipsis in the middle of the path) before
 * its file name, which says what the card is about: "src/comp…/CartSummary.tsx".
 */
export function splitPath(path: string): { dir: string; base: string } {
  const at = path.replace(/\/+$/, '').lastIndexOf('/');
  return at < 0 ? { dir: '', base: path } : { dir: path.slice(0, at + 1), base: path.slice(at + 1) };
}

/** A workspace path as a link: opens the file in the editor (the host checks it is inside the workspace). `split`: in a title that may be cut. */
export function PathLink({ path, split }: { path: string; split?: boolean }) {
  const shown = visibleLine(path);
  const parts = split ? splitPath(shown) : undefined;
  return (
    <a
      class={parts ? 'path-link path-split' : 'path-link'}
      href="#"
      title={`Open ${visibleLine(path)}`}
      onClick={(e) => { e.preventDefault(); e.stopPropagation(); postToHost({ type: 'open_file', path: path.slice(0, 4096) }); }}
    >
      {parts?.dir ? <><span class="path-dir">{parts.dir}</span><span class="path-base">{parts.base}</span></> : shown}
    </a>
  );
}

function ApprovalDetails({ a, callId }: { a: ApprovalInfo; callId: string }) {
  const isEdit = a.kind === 'edit' || a.kind === 'create';
  return (
    <div class="approval">
      {a.kind === 'command' ? (
        <>
          <div class="label">Command</div>
          <pre class="command"><code>{visibleBlock(a.command ?? '')}</code></pre>
          {/* Where it runs as the workspace names it (a step beside others runs in a copy elsewhere); cards saved before say the absolute folder. */}
          {a.where !== undefined
            ? <div class="muted" data-command-where>in {a.where === '.' ? 'the workspace folder' : <code>{visibleLine(a.where)}</code>}</div>
            : a.cwd && <div class="muted">in <code>{visibleLine(a.cwd)}</code></div>}
        </>
      ) : a.kind === 'mcp' ? (
        <>
          <div class="approval-target">
            <span class="label">MCP tool</span> <code>{visibleLine(a.tool_name ?? '')}</code> <span class="muted">from the server {visibleLine(a.server ?? '?')}</span>
          </div>
          <pre class="command mcp-arguments"><code>{visibleBlock(a.arguments ?? '{}')}</code></pre>
        </>
      ) : (
        <div class="approval-target">
          <span class="label">{a.kind === 'create' ? 'New file' : a.kind === 'delete' ? 'Delete' : a.kind === 'outside_workspace' ? 'Outside the workspace' : 'Edit'}</span>{' '}
          {a.path && <code class="file">{visibleLine(a.path)}</code>}{' '}
          <DiffStat added={a.added} removed={a.removed} />
        </div>
      )}
      {a.files && a.files.length > 1 && <ApprovalFiles files={a.files} />}
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

/**
 * "Always allow" on a command waiting for approval: first a confirmation that shows exactly the
 * entries the allow-list gets (the command as parsed, one per simple command) and what they
 * match, then the host adds them and runs this command. Compound commands never widen the rule:
 * each part needs its own entry, and chains, pipes into other commands, redirections and
 * substitutions are checked on every run whatever the list holds.
 */
function AlwaysAllow({ entries, callId }: { entries: string[]; callId: string }) {
  const [open, setOpen] = useState(false);
  if (!open) {
    return <button type="button" class="secondary" title="Add this command to the allow-list (you see the entry first)" onClick={() => setOpen(true)}>Always allow…</button>;
  }
  return (
    <div class="confirm allow-confirm" role="group" aria-label="Always allow this command" onKeyDown={(e) => { if (e.key === 'Escape') { e.preventDefault(); e.stopPropagation(); setOpen(false); } }}>
      <div>Add {entries.length === 1 ? 'this entry' : `these ${entries.length} entries`} to your command allow-list, and run this command now?</div>
      <ul class="allow-entries" aria-label="Allow-list entries">{entries.map((e) => <li key={e}><code>{visibleLine(e)}</code></li>)}</ul>
      <div class="muted">
        Runs unasked (sandboxed, no network): {entries.length === 1 ? 'this command' : 'each'} with the same first words, also with more arguments (<code>{visibleLine(entries[0]!)} --verbose</code>).
        {entries.length > 1 && ' A chain of them only when every part has its entry.'}
        {' '}Never matched: other commands chained or piped to it, redirections (<code>&gt; file</code>), substitutions (<code>$(…)</code>).
        {' '}Undo with Remove on this card, or in Settings › Tandem › Command Allow List.
      </div>
      <div class="actions">
        <button type="button" class="primary" ref={focusOnMount} onClick={() => { setOpen(false); postToHost({ type: 'allow_command', call_id: callId }); }}>Allow and run</button>
        <button type="button" class="secondary" onClick={() => setOpen(false)}>Cancel</button>
      </div>
    </div>
  );
}

/**
 * A command whose every part is on the allow-list says so (it would run unasked), and each entry
 * can be taken back here. A command only partly covered says nothing: it is asked about.
 */
function AllowedNote({ entries }: { entries: string[] }) {
  const list = useView((s) => s.allowList);
  const on = entries.filter((e) => list.includes(e));
  if (on.length === 0 || on.length < entries.length) return null;
  return (
    <div class="allowed-note muted" aria-label="On the allow-list">
      On your allow-list:{' '}
      {on.map((e) => (
        <span key={e} class="allowed-entry">
          <code>{visibleLine(e)}</code>{' '}
          <button type="button" class="link" title={`Take "${visibleLine(e)}" off the allow-list: it asks again next time`} onClick={() => postToHost({ type: 'remove_allowed_command', entry: e })}>Remove</button>
        </span>
      ))}
    </div>
  );
}

/**
 * After a change was made, its card keeps what changed (`+N −M`) and a way to see it again: the
 * diff of that very change (before ↔ as the agent left it), from the task's checkpoints.
 */
function ChangeLine({ a, callId, reverted, copyOfStep }: { a: ApprovalInfo; callId: string; reverted: boolean; copyOfStep?: number }) {
  return (
    <div class="approval-target change-line">
      <span class="label">{a.kind === 'create' ? 'Created' : a.kind === 'delete' ? 'Deleted' : 'Edited'}</span>{' '}
      {a.path && <code class="file">{visibleLine(a.path)}</code>}{' '}
      <DiffStat added={a.added} removed={a.removed} />
      {!reverted && a.kind !== 'delete' && (
        <button type="button" class="link" onClick={() => postToHost({ type: 'open_diff', call_id: callId })}>Open diff</button>
      )}
      {/* A step run beside others works in its own copy: the user's file changes only when the step is applied. */}
      {copyOfStep !== undefined && <div class="muted" data-step-copy>In step {copyOfStep}'s copy: your file changes when the step is applied.</div>}
    </div>
  );
}

/** A loaded skill is a chip on the turn ("Skill: release-notes"); opened, what loading it returned. */
function SkillChip({ card, name }: { card: ToolCallCard; name?: string }) {
  return (
    <div class="tool skill-loaded">
      <LazyDetails className="result" summary={<span class="chip skill-chip" title={visibleLine(card.result ?? '')}>Skill: {visibleLine(name ?? '?')}</span>} render={() => <pre>{card.result}</pre>} />
    </div>
  );
}

/** What the user's hooks did to the call (blocked, allowed, asked; failures as warnings), in the words the CLI prints. */
function HookLines({ note, error }: { note: HookNote; error?: string }) {
  return (
    <>
      {hookNoteLines(note, error).map((l, i) => (
        <div key={i} class={`hook-line ${l.warning ? 'warning-text' : 'muted'}`}>{visibleLine(l.text)}</div>
      ))}
    </>
  );
}

/**
 * The least room the title keeps beside the status chip before the chip moves to a line of its own:
 * the verb and a path's file name (its folder cut to "s…/"), or a command's first 18 characters.
 * In characters of the title's font, at most about half the view's width.
 */
function titleRoom(h: Headline): string {
  const n = h.verb.length + (h.path ? splitPath(h.path).base.length + 3 : h.rest ? Math.min(18, h.rest.length) + 1 : 0);
  return `min(${Math.min(n, 28)}ch, 55vw)`;
}

/** The headline; "— exit 1" is left to the chip beside it when the chip says how the command ended. */
function headlineBesideChip(card: ToolCallCard, chipSaysExit: boolean): Headline {
  const h = toolHeadline(card);
  if (!chipSaysExit || h.suffix === undefined) return h;
  const { suffix: _said, ...rest } = h;
  return rest;
}

export function ToolCallCardView({ card }: { card: ToolCallCard }) {
  // A call's card starts as `pending` before anything is asked; the question is asked (and the host
  // waits for the answer) only once the card carries what is asked (`approval`). Approve/Reject
  // before that would be a click nothing waits for, so they appear with the approval details.
  const pending = card.status === 'pending' && card.approval !== undefined;
  const store = useViewStore();
  const withNote = useView((s) => pending && s.draft.trim() !== '');
  const revertRefusal = useView((s) => (card.revertible && !card.reverted ? s.chat.refusal('revert_call', card.call_id) : undefined));
  const display = toolCallDisplay(card);
  if (display.kind === 'skill' && card.status === 'done') return <SkillChip card={card} name={display.detail} />;
  const starting = card.status === 'pending' && !pending;
  const exit = card.exit && (card.status === 'done' || card.status === 'error') ? card.exit : undefined;
  const allow = card.approval?.kind === 'command' ? card.approval.allow : undefined;
  // A command that did not succeed: its verdict is at the end of its output.
  const failedCommand = display.kind === 'command' && (exit ? exit.outcome !== 'success' : card.status === 'error');
  const headline = headlineBesideChip(card, exit !== undefined);
  return (
    <div class="tool">
      <div class="card-head">
        <span class="card-title">
          {/* An approval says which plan step asks (steps may run side by side). */}
          {pending && card.step && <span class="chip step-tag" data-step-tag={card.step}>Step {card.step}</span>}
          <span class="title-glyph" aria-hidden="true">⚙</span>{' '}
          <span class="tool-summary" title={visibleLine(card.summary)} style={{ minWidth: titleRoom(headline) }}><HeadlineText h={headline} /></span>{' '}
          {/* The tool's name, or what its display shows instead (an MCP tool's long `server__tool`: the server; the headline says the tool). */}
          <span class="tool-name" title={`${visibleLine(display.title)} (tool ${card.tool})`}>{display.tag ?? card.tool}</span>
        </span>
        {exit ? (
          <span class={`chip exit-${exit.outcome}`} data-exit={exit.outcome} title={exit.code === null ? 'No exit code' : `Exit code ${exit.code}`}>{exitLabel(exit)}</span>
        ) : (
          <span class={`chip status-${starting ? 'starting' : card.status}`}>{starting ? 'starting' : (card.check_step !== undefined ? CHECK_LABEL[card.status] : undefined) ?? STATUS_LABEL[card.status] ?? card.status}</span>
        )}
      </div>
      {card.approval?.amendment && <AmendmentBlock a={card.approval.amendment} callId={card.call_id} pending={pending} />}
      {card.approval && (pending || card.approval.kind === 'command') && <ApprovalDetails a={card.approval} callId={card.call_id} />}
      {card.approval && !pending && card.status === 'done' && (card.approval.kind === 'edit' || card.approval.kind === 'create' || card.approval.kind === 'delete') && (
        <ChangeLine a={card.approval} callId={card.call_id} reverted={card.reverted === true} {...(card.branch && card.step ? { copyOfStep: card.step } : {})} />
      )}
      {pending && !card.approval?.amendment && (
        <div class="actions">
          <button type="button" class="primary" title={withNote ? 'Approve, and send your message with it' : undefined} onClick={() => decide(store, card.call_id, true)}>{withNote ? 'Approve with message' : 'Approve'}</button>
          <button type="button" class="secondary" title={withNote ? 'Reject, and send your message as the reason' : undefined} onClick={() => decide(store, card.call_id, false)}>{withNote ? 'Reject with message' : 'Reject'}</button>
          {allow?.entries && allow.entries.length > 0 && !withNote && <AlwaysAllow entries={allow.entries} callId={card.call_id} />}
        </div>
      )}
      {pending && allow?.refused && <div class="muted allow-refused">Always allow is not offered: {visibleLine(allow.refused)}.</div>}
      {allow?.entries && allow.entries.length > 0 && <AllowedNote entries={allow.entries} />}
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
      {card.revertible && !card.reverted && <RefusalNote text={revertRefusal} />}
      {card.hook && <HookLines note={card.hook} error={card.error} />}
      {card.note && <div class="decision-note" aria-label="Your message">You: {card.note}</div>}
      {/* A rejection is the user's decision, not a failure: said plainly, and a rejected change can still be looked at.
          A stopped call (Stop, or the window closed under it) is no failure either: its why, as plainly. */}
      {card.error && (card.status === 'rejected' || (card.status === 'stopped' && !failedCommand) ? (
        <div class="muted rejected-why">
          {visibleLine(card.error)}{' '}
          {card.status === 'rejected' && (card.approval?.kind === 'edit' || card.approval?.kind === 'create') && <button type="button" class="link" onClick={() => postToHost({ type: 'open_diff', call_id: card.call_id })}>Open rejected diff</button>}
        </div>
      ) : (
        <LazyDetails className="result result-error" initiallyOpen summary={failedCommand ? 'Output' : 'Error'} render={() => (failedCommand ? <FailedOutput text={card.error!} /> : <pre>{card.error}</pre>)} />
      ))}
      {card.result !== undefined && card.result !== '' && (
        <LazyDetails className="result" initiallyOpen={failedCommand} summary={failedCommand ? 'Output' : 'Result'} render={() => (failedCommand ? <FailedOutput text={card.result!} /> : <pre>{card.result}</pre>)} />
      )}
      {hasArgs(card.args) && (
        <LazyDetails className="result" summary="Arguments" render={() => <pre>{argsText(card.args)}</pre>} />
      )}
    </div>
  );
}
