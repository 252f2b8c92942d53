/**
 * The task's one turn in flight (a message's, a plan run's, a retry's): whatever starts it, it gets
 * the user's hooks in force, can be stopped, and ends the same way — a failure said in the chat as
 * a card, then `turn_ended` with its outcome and the agent idle.
 */
import type { TurnOutcome } from '../../protocol';
import type { EventStream } from '../events';
import { LlmError } from '../llm';
import { QuestionUnanswerable, type Logger } from '../ports/ports';
import type { LimitQuestion } from '../turn/limitQuestion';
import type { AgentHooks } from '../turn/turnHooks';
import type { AgentStatus } from './agentStatus';
import type { UserHookSession } from './userHookSession';

export interface TurnInFlightDeps {
  events: EventStream;
  status: AgentStatus;
  /** The tool-call limit's question: a stop answers it, and it is gone when the turn ends. */
  limit: LimitQuestion;
  userHooks: UserHookSession;
  hooks: AgentHooks;
  logger: Logger;
}

export class TurnInFlight {
  private running: AbortController | undefined;
  /** How the last turn ended (Retry runs only one that failed or stopped); undefined once forgotten. */
  lastOutcome: TurnOutcome | undefined;

  constructor(private readonly d: TurnInFlightDeps) {}

  get busy(): boolean {
    return this.running !== undefined;
  }

  /** Cancels the request in flight and the limit's question, if one waits. */
  stop(): void {
    this.running?.abort();
    this.d.limit.answer(false);
  }

  /** Runs `body` as the one turn in flight; always ends with `turn_ended` and `idle`. */
  async run(body: (signal: AbortSignal) => Promise<TurnOutcome>): Promise<TurnOutcome> {
    const { events, status } = this.d;
    const controller = new AbortController();
    this.running = controller;
    let outcome: TurnOutcome = 'error';
    try {
      await this.d.userHooks.beginTurn({ waiting: (detail) => status.set('waiting_on_user', detail) });
      outcome = await body(controller.signal);
    } catch (err) {
      if (err instanceof QuestionUnanswerable) outcome = 'waiting';
      else if (controller.signal.aborted) outcome = 'stopped';
      else if (err instanceof LlmError) {
        // A request outside the streamed loop (the final plan request) failed: same card as in the loop.
        events.addCard({ kind: 'error', id: events.newId('error'), message: err.message, ...(err.detail && err.detail !== err.message ? { detail: err.detail } : {}), retryable: err.retryable, failure: err.kind, ts: Date.now() });
        outcome = 'error';
      } else {
        this.d.logger.error(`turn failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
        events.addCard({ kind: 'error', id: events.newId('error'), message: `Internal error: ${err instanceof Error ? err.message : String(err)}`, retryable: false, ts: Date.now() });
        outcome = 'error';
      }
    } finally {
      if (controller.signal.aborted && outcome !== 'waiting') outcome = 'stopped';
      this.running = undefined;
      this.d.limit.clear();
      this.lastOutcome = outcome;
    }
    status.set('idle');
    events.emit({ type: 'turn_ended', outcome });
    this.d.hooks.onTurnEnded?.(outcome);
    return outcome;
  }
}
