import * as path from 'node:path';
import type { HostPorts } from '../ports/ports';
import type { AgentHooks, SettledToolCall } from '../turn/turnHooks';
import { CheckpointStore, type CheckpointLimits, type RevertResult } from '../checkpoints/checkpointStore';
import { revertDiffs, revertRefusalText } from '../checkpoints/revertRefusalText';
import { partCardIds, type TaskOutput } from './taskOutput';
import { buildTaskSummary } from '../history/taskSummary';
import type { ErrorCard } from '../../protocol';

/** Which click a refused revert answers (the chat shows the refusal by that button). */
type Refusal = NonNullable<ErrorCard['refused']>;

/** The model's side of the task: whether a turn is in flight, and where notes for the model go in. */
export interface ModelConversation {
  readonly busy: boolean;
  /** Appended to the conversation (the agent's, which owns it) as Tandem's notes. */
  noteToModel(notes: readonly string[]): void;
}

/**
 * Checkpoints of one task: the pre-image of every file before the agent changes it, the
 * post-image once the tool call settled, and reverting a call or the whole task. The model is
 * told of a revert before its next turn (it must re-read the files), never in the middle of one.
 */
export class TaskCheckpoints {
  readonly store: CheckpointStore;
  private readonly cardOfCall = new Map<string, string>();
  private readonly notRevertible = new Set<string>();
  /** Notes for the model (reverts) waiting for the turn in flight to end. */
  private readonly modelNotes: string[] = [];
  private readonly newId = partCardIds('checkpoint');

  constructor(
    taskDir: string,
    limits: CheckpointLimits,
    private readonly deps: { fs: HostPorts['fs']; logger: HostPorts['logger']; out: TaskOutput; model: () => ModelConversation | undefined },
    /** Tool calls of a resumed task, so their cards are marked when they are reverted. */
    resumedCalls: readonly { callId: string; cardId: string }[] = [],
  ) {
    this.store = new CheckpointStore(path.join(taskDir, 'checkpoints'), deps.fs, limits);
    for (const c of resumedCalls) this.cardOfCall.set(c.callId, c.cardId);
  }

  readonly hooks: Pick<AgentHooks, 'beforeChange' | 'onToolCallSettled' | 'onTurnEnded'> = {
    beforeChange: (abs, callId) => this.beforeChange(abs, callId),
    onToolCallSettled: (call) => void this.afterCall(call),
    onTurnEnded: (outcome) => {
      this.flushModelNotes();
      if (outcome !== 'waiting') void this.summarize(outcome);
    },
  };

  /**
   * The summary card of a run that changed files or ran commands, once the post-images are taken
   * (they decide which files count as changed).
   */
  private async summarize(outcome: 'done' | 'stopped' | 'error' | 'limit'): Promise<void> {
    await this.settled();
    if (this.deps.model()?.busy) return;
    const card = buildTaskSummary(this.deps.out.cards(), this.store.touchedFiles(), outcome, this.newId('summary'));
    if (card) this.deps.out.emit({ type: 'card_added', card });
  }

  /** "Revert…" on one file of the task summary: that file back to how the task found it. */
  async revertFile(display: string): Promise<RevertResult> {
    await this.settled();
    const calls = [...new Set(this.store.entries().filter((e) => !e.reverted && e.display === display).map((e) => e.callId))];
    const r = await this.store.revertTask(display);
    // Only the cards whose every file went back are marked reverted.
    this.report(r, calls.filter((c) => this.store.callState(c).reverted), { action: 'revert_file', target: display });
    return r;
  }

  private async beforeChange(absPath: string, callId: string): Promise<void> {
    const note = await this.store.beforeChange(absPath, callId);
    if (note && !this.notRevertible.has(callId)) {
      this.notRevertible.add(callId);
      // Said at once, before the change lands: the user learns it cannot be undone from here.
      this.deps.out.emit({ type: 'card_added', card: { kind: 'text', id: this.newId('not-revertible'), author: 'system', note: 'context', text: note, ts: Date.now() } });
    }
  }

  private async afterCall(call: SettledToolCall): Promise<void> {
    this.cardOfCall.set(call.callId, call.cardId);
    try {
      await this.store.afterCall(call.callId);
      const st = this.store.callState(call.callId);
      if (!st.changed) return;
      this.deps.out.emit({ type: 'card_patched', id: call.cardId, patch: { revertible: st.revertible, ...(st.note ? { revert_note: st.note } : {}) } });
    } catch (err) {
      this.deps.logger.warn(`checkpoint after ${call.callId}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /** Waits for post-images still being taken (they are what makes a revert safe). */
  async settled(): Promise<void> {
    await this.store.afterCall('\u0000none');
  }

  touchedFiles(): ReturnType<CheckpointStore['touchedFiles']> {
    return this.store.touchedFiles();
  }

  /** "Revert this change" on a tool card. The outcome is recorded in the chat either way. */
  async revertCall(callId: string): Promise<RevertResult> {
    await this.settled();
    const r = await this.store.revertCall(callId);
    this.report(r, [callId], { action: 'revert_call', target: callId });
    return r;
  }

  /** The files the calls `callIds` changed that are not reverted yet (workspace-relative, first changed first). */
  filesChangedBy(callIds: ReadonlySet<string>): string[] {
    return [...new Set(this.store.entries().filter((e) => !e.reverted && callIds.has(e.callId)).map((e) => e.display))];
  }

  /**
   * Edit & resend with "revert": the files the dropped calls changed go back to how they were
   * before the first of them. Their cards are being dropped, so none is patched; a refusal is said
   * in the chat (and nothing was reverted).
   */
  async revertCalls(callIds: ReadonlySet<string>, refused: Refusal): Promise<RevertResult> {
    await this.settled();
    const r = await this.store.revertCalls(callIds);
    if (!r.ok) this.report(r, [], refused);
    return r;
  }

  /** The agent's latest change that is not reverted yet ("Revert Last Change"). */
  lastChangeCallId(): string | undefined {
    const live = this.store.entries().filter((e) => !e.reverted);
    return live[live.length - 1]?.callId;
  }

  /** "Revert the whole task". */
  async revertTask(): Promise<RevertResult> {
    await this.settled();
    const calls = [...new Set(this.store.entries().filter((e) => !e.reverted).map((e) => e.callId))];
    const r = await this.store.revertTask();
    this.report(r, calls, { action: 'revert_task' });
    return r;
  }

  /** The model must know files went back, or it would build on changes that are gone. */
  private flushModelNotes(): void {
    const model = this.deps.model();
    if (!model || model.busy || this.modelNotes.length === 0) return;
    model.noteToModel(this.modelNotes.splice(0));
  }

  private report(r: RevertResult, calls: string[], refused: Refusal): void {
    const out = this.deps.out;
    if (r.ok) {
      this.modelNotes.push(`The user reverted changes: ${r.message} Re-read these files before changing them again.`);
      this.flushModelNotes();
      for (const c of calls) {
        const cardId = this.cardOfCall.get(c);
        if (cardId) out.emit({ type: 'card_patched', id: cardId, patch: { reverted: true, revertible: false } });
      }
      out.emit({ type: 'card_added', card: { kind: 'text', id: this.newId('revert'), author: 'system', note: 'revert', text: r.message, ts: Date.now() } });
    } else {
      const diffs = revertDiffs(r.conflicts);
      out.emit({ type: 'card_added', card: { kind: 'error', id: this.newId('revert-refused'), message: revertRefusalText(r.message, r.conflicts, 'card'), ...(diffs ? { detail: diffs } : {}), retryable: false, refused, ts: Date.now() } });
    }
  }
}
