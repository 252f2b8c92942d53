import type { AgentState, Question } from '../../protocol';
import type { EventStream } from '../events';
import { QuestionUnanswerable, type QuestionAsker } from '../ports/ports';

/** The question shown when a turn reaches its tool-call limit. Default: stop (a runaway agent must not go on by default). */
export function limitQuestion(count: number): Question {
  return {
    question: `The agent has made ${count} tool calls in this turn. Let it continue?`,
    context: 'Tool calls per turn are limited (setting: limits.maxToolCallsPerTurn) so a confused model cannot loop forever.',
    severity: 'minor',
    options: [
      { label: 'Continue', value: 'continue', description: `Allow up to ${count} more tool calls` },
      { label: 'Stop here', value: 'stop', description: 'End the turn now' },
    ],
    default: 'stop',
    allow_custom: false,
  };
}

/**
 * At the tool-call limit the turn asks whether to go on: a question card, answered by the chat's
 * click (`answer`, also Stop's "no") or by the host's asker, whichever comes first.
 */
export class LimitQuestion {
  private waiter: ((allow: boolean) => void) | undefined;

  constructor(private readonly deps: { events: EventStream; asker: QuestionAsker; setState(state: AgentState): void }) {}

  /** The chat's answer to the question waiting, if one is (true: continue). */
  answer(allow: boolean): void {
    this.waiter?.(allow);
  }

  /** The turn ended: nothing waits any more. */
  clear(): void {
    this.waiter = undefined;
  }

  /** Asks; `unanswerable` when nobody can answer (a headless run). */
  async ask(count: number, signal: AbortSignal): Promise<boolean | 'unanswerable'> {
    const { events, asker, setState } = this.deps;
    const question = limitQuestion(count);
    const cardId = events.newId('question');
    events.addCard({ kind: 'question', id: cardId, question, status: 'waiting', ts: Date.now() });
    setState('waiting_on_user');
    const asking = new AbortController();
    const onAbort = () => asking.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const answer = await new Promise<boolean | 'unanswerable'>((resolve) => {
        this.waiter = resolve;
        asker.ask(question, cardId, asking.signal).then(
          (value) => resolve(value === 'continue'),
          (err) => resolve(err instanceof QuestionUnanswerable ? 'unanswerable' : false),
        );
      });
      if (answer === 'unanswerable') return answer;
      events.patchCard(cardId, signal.aborted ? { status: 'cancelled' } : { status: 'answered', answer: answer ? 'continue' : 'stop' });
      return signal.aborted ? false : answer;
    } finally {
      this.waiter = undefined;
      asking.abort();
      signal.removeEventListener('abort', onAbort);
      setState('calling_tool');
    }
  }
}
