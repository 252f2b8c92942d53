import type { Question } from '../../protocol';
import { QuestionUnanswerable, type QuestionAsker } from '../ports/ports';
import type { AgentSettings } from '../settings/settings';
import type { AgentHooks, CountedUsage } from '../turn/turnHooks';
import { TaskBudget } from '../cost/budget';
import { costOf, formatUsd } from '../cost/priceTable';
import { TurnHalt } from '../context/turnHalt';
import { partCardIds, type TaskOutput } from './taskOutput';

/**
 * The per-task budget, fed by the agent's `onUsage`: warns at 80%, and at 100% stops before the
 * next request (`beforeRequest`) and asks whether to go on with a higher limit for this task.
 */
export class TaskBudgetGuard {
  readonly budget: TaskBudget;
  private limitOverride?: number;
  private readonly unpricedWarned = new Set<string>();
  private readonly newId = partCardIds('budget');

  constructor(
    private readonly deps: { settings: () => AgentSettings; asker: QuestionAsker; out: TaskOutput },
    /** What a resumed task had spent already. */
    spentUsd = 0,
  ) {
    this.budget = new TaskBudget(deps.settings().taskBudgetUsd, spentUsd);
  }

  readonly hooks: Pick<AgentHooks, 'onUsage'> = { onUsage: (u) => this.count(u) };

  /** A request's usage. The condensing summary is priced like any request, without the unknown-price note. */
  count(u: CountedUsage): void {
    const cost = u.costUsd ?? costOf(u.model, u.tokensIn, u.tokensOut, this.deps.settings().prices);
    if (u.outcome !== 'summary' && cost === undefined && this.budget.limit > 0 && (u.tokensIn > 0 || u.tokensOut > 0) && !this.unpricedWarned.has(u.model)) {
      this.unpricedWarned.add(u.model);
      this.error(`The task budget cannot count requests to ${u.model}: its price is unknown. Add it to the prices setting (USD per million tokens, input and output).`);
    }
    const notice = this.budget.add(cost);
    if (notice) this.error(notice.message);
  }

  /** At 100% of the budget: stop before the request and ask whether to go on (with a higher limit). */
  async beforeRequest(signal?: AbortSignal): Promise<void> {
    const settings = this.deps.settings();
    const limit = this.limitOverride ?? settings.taskBudgetUsd;
    if (limit !== this.budget.limit && this.limitOverride === undefined) this.budget.setLimit(limit);
    if (this.budget.state !== 'exceeded') return;
    const base = settings.taskBudgetUsd || this.budget.limit;
    const raised = this.budget.spent + base;
    const question: Question = {
      question: `This task's budget of ${formatUsd(this.budget.limit)} is used up (${formatUsd(this.budget.spent)} spent). Continue?`,
      context: 'The agent stopped before its next request. Continuing raises this task\'s budget; the setting stays as it is.',
      severity: 'major',
      options: [
        { label: `Continue up to ${formatUsd(raised)}`, value: 'raise', description: `Allows another ${formatUsd(base)}.` },
        { label: 'Stop here', value: 'stop' },
      ],
      default: 'stop',
      allow_custom: false,
    };
    const out = this.deps.out;
    const cardId = this.newId('question');
    this.error(this.budget.exceededMessage());
    out.emit({ type: 'card_added', card: { kind: 'question', id: cardId, question, status: 'waiting', ts: Date.now() } });
    out.emit({ type: 'agent_state', state: 'waiting_on_user' });
    let answer: string;
    try {
      answer = await this.deps.asker.ask(question, cardId, signal ?? new AbortController().signal);
    } catch (err) {
      if (err instanceof QuestionUnanswerable) throw new TurnHalt('waiting', this.budget.exceededMessage());
      out.emit({ type: 'card_patched', id: cardId, patch: { status: 'cancelled' } });
      throw new TurnHalt('stopped', 'Stopped at the budget question.');
    }
    out.emit({ type: 'card_patched', id: cardId, patch: { status: 'answered', answer } });
    if (answer !== 'raise') throw new TurnHalt('waiting', this.budget.exceededMessage());
    this.limitOverride = raised;
    this.budget.setLimit(raised);
  }

  private error(message: string): void {
    this.deps.out.emit({ type: 'card_added', card: { kind: 'error', id: this.newId('notice'), message, retryable: false, ts: Date.now() } });
  }
}
