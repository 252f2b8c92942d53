import assert from 'node:assert/strict';
import { costOf, priceFor, formatUsd } from '../../../src/core/cost/priceTable';
import { UsageMeter } from '../../../src/core/cost/usageMeter';
import { TaskBudget } from '../../../src/core/cost/budget';

describe('cost: prices', () => {
  it('prices common models by name, with router prefixes and dated suffixes', () => {
    assert.deepEqual(priceFor('gpt-4o'), { input: 2.5, output: 10 });
    assert.deepEqual(priceFor('openai/gpt-4o-mini-2024-07-18'), { input: 0.15, output: 0.6 });
    assert.deepEqual(priceFor('anthropic/claude-3.5-sonnet'), { input: 3, output: 15 });
    assert.equal(priceFor('gpt-4.1-mini')!.input, 0.4);
    assert.equal(priceFor('o3-mini')!.output, 4.4);
  });
  it('leaves local or unknown models unpriced rather than free', () => {
    assert.equal(priceFor('qwen2.5-coder:7b'), undefined);
    assert.equal(costOf('my-finetune', 1000, 1000), undefined);
  });
  it('lets settings.prices override the table and add models', () => {
    const prices = { 'gpt-4o': { input: 1, output: 2 }, 'qwen2.5-coder': { input: 0.1, output: 0.1 } };
    assert.equal(costOf('gpt-4o', 1_000_000, 1_000_000, prices), 3);
    assert.equal(costOf('qwen2.5-coder:7b', 2_000_000, 0, prices), 0.2);
  });
  it('computes USD per request from tokens in and out', () => {
    // gpt-4o: 2.5 in, 10 out per 1M
    assert.equal(costOf('gpt-4o', 10_000, 1_000), 0.025 + 0.01);
    assert.equal(formatUsd(0.035), '$0.04');
    assert.equal(formatUsd(0.0012), '$0.0012');
  });
});

describe('cost: usage meter', () => {
  it('sums per turn and per task, starting from the totals saved with a resumed task', () => {
    const m = new UsageMeter(undefined, { tokens_in: 100, tokens_out: 10, cost_usd: 1 });
    m.startTurn();
    const a = m.record('gpt-4o', 1_000_000, 0);
    assert.equal(a.cost_usd, 2.5);
    assert.deepEqual(a.turn, { tokens_in: 1_000_000, tokens_out: 0, cost_usd: 2.5, unpriced: 0 });
    assert.equal(a.task.tokens_in, 1_000_100);
    assert.equal(a.task.cost_usd, 3.5);
    m.startTurn();
    const b = m.record('local-llama', 50, 5);
    assert.equal(b.cost_usd, undefined);
    assert.equal(b.turn.cost_usd, undefined);
    assert.equal(b.turn.unpriced, 1);
    assert.equal(b.task.cost_usd, 3.5);
  });
});

describe('cost: task budget', () => {
  it('is off at 0', () => {
    const b = new TaskBudget(0);
    assert.equal(b.add(100), undefined);
    assert.equal(b.state, 'off');
  });
  it('warns once when crossing 80% and reports exceeded from 100%', () => {
    const b = new TaskBudget(1);
    assert.equal(b.add(0.5), undefined);
    assert.equal(b.state, 'ok');
    const w = b.add(0.35);
    assert.equal(w?.level, 'warn');
    assert.match(w!.message, /85% of this task's budget is spent: \$0\.85 of \$1\.00/);
    assert.equal(b.add(0.05), undefined, 'no second warning');
    assert.equal(b.state, 'warn');
    b.add(0.1);
    assert.equal(b.state, 'exceeded');
    assert.match(b.exceededMessage(), /budget of \$1\.00 is used up \(\$1\.00 spent\)/);
  });
  it('re-arms the warning when the user raises the limit', () => {
    const b = new TaskBudget(1, 1.02);
    assert.equal(b.state, 'exceeded');
    b.setLimit(2);
    assert.equal(b.state, 'ok');
    assert.equal(b.add(0.6)?.level, 'warn');
  });
});
