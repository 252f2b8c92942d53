import { formatUsd } from './priceTable';

export type BudgetState = 'off' | 'ok' | 'warn' | 'exceeded';

export interface BudgetNotice {
  level: 'warn' | 'exceeded';
  message: string;
}

/**
 * The per-task budget (`taskBudgetUsd`, 0 = off). Warns once when spending crosses 80%, and
 * reports `exceeded` from 100% on so the loop stops before the next request and asks the user.
 * Raising the limit (the user chose to go on) re-arms the warning for the new limit.
 */
export class TaskBudget {
  static readonly WARN_AT = 0.8;
  private warned = false;

  constructor(private limitUsd: number, private spentUsd = 0) {
    this.warned = limitUsd > 0 && spentUsd >= limitUsd * TaskBudget.WARN_AT;
  }

  get limit(): number {
    return this.limitUsd;
  }

  get spent(): number {
    return this.spentUsd;
  }

  setLimit(limitUsd: number): void {
    // Already past 80% of the new limit (the user just chose it): no second warning for it.
    this.limitUsd = limitUsd;
    this.warned = limitUsd > 0 && this.spentUsd >= limitUsd * TaskBudget.WARN_AT;
  }

  get state(): BudgetState {
    if (!(this.limitUsd > 0)) return 'off';
    if (this.spentUsd >= this.limitUsd) return 'exceeded';
    if (this.spentUsd >= this.limitUsd * TaskBudget.WARN_AT) return 'warn';
    return 'ok';
  }

  /** Adds a request's cost; returns the notice to show when this request crossed a threshold. */
  add(costUsd: number | undefined): BudgetNotice | undefined {
    if (costUsd === undefined || !(costUsd > 0)) return undefined;
    this.spentUsd += costUsd;
    const s = this.state;
    if (s === 'warn' && !this.warned) {
      this.warned = true;
      return { level: 'warn', message: this.warnMessage() };
    }
    if (s === 'exceeded' && !this.warned) {
      // Jumped straight past 80%: the stop message says it all.
      this.warned = true;
    }
    return undefined;
  }

  warnMessage(): string {
    const pct = Math.round((this.spentUsd / this.limitUsd) * 100);
    return `${pct}% of this task's budget is spent: ${formatUsd(this.spentUsd)} of ${formatUsd(this.limitUsd)}. The agent will stop and ask before going over it.`;
  }

  exceededMessage(): string {
    return `This task's budget of ${formatUsd(this.limitUsd)} is used up (${formatUsd(this.spentUsd)} spent). The agent stopped before the next request.`;
  }
}
