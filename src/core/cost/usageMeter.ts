import { costOf, type Price } from './priceTable';

export interface UsageTotals {
  tokens_in: number;
  tokens_out: number;
  /** Undefined while every request so far had an unknown price. */
  cost_usd?: number;
  /** Requests whose model had no known price (their cost is not in `cost_usd`). */
  unpriced?: number;
}

export interface RecordedUsage {
  /** Cost of this very request (undefined: no price known for the model). */
  cost_usd?: number;
  turn: UsageTotals;
  task: UsageTotals;
}

function add(t: UsageTotals, tokensIn: number, tokensOut: number, cost: number | undefined): UsageTotals {
  return {
    tokens_in: t.tokens_in + tokensIn,
    tokens_out: t.tokens_out + tokensOut,
    cost_usd: cost === undefined ? t.cost_usd : (t.cost_usd ?? 0) + cost,
    unpriced: (t.unpriced ?? 0) + (cost === undefined ? 1 : 0),
  };
}

const zero = (): UsageTotals => ({ tokens_in: 0, tokens_out: 0, unpriced: 0 });

/**
 * Tokens and cost per request, per turn and per task. Starts from the totals saved in history
 * so a resumed task keeps counting where it left off.
 */
export class UsageMeter {
  private turnTotals: UsageTotals = zero();
  private taskTotals: UsageTotals;

  constructor(private prices: Record<string, Price> | undefined, initial?: UsageTotals) {
    this.taskTotals = initial ? { ...initial } : zero();
  }

  setPrices(prices: Record<string, Price> | undefined): void {
    this.prices = prices;
  }

  startTurn(): void {
    this.turnTotals = zero();
  }

  record(model: string, tokensIn: number, tokensOut: number): RecordedUsage {
    const cost = costOf(model, tokensIn, tokensOut, this.prices);
    this.turnTotals = add(this.turnTotals, tokensIn, tokensOut, cost);
    this.taskTotals = add(this.taskTotals, tokensIn, tokensOut, cost);
    return { cost_usd: cost, turn: { ...this.turnTotals }, task: { ...this.taskTotals } };
  }

  get turn(): UsageTotals {
    return { ...this.turnTotals };
  }

  get task(): UsageTotals {
    return { ...this.taskTotals };
  }
}
