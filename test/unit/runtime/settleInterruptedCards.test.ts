import assert from 'node:assert/strict';
import { settleInterruptedCards } from '../../../src/core/runtime/settleInterruptedCards';
import { PlanDraftCard, type Card } from '../../../src/protocol';

describe('a task saved while the Planner wrote its plan, resumed', () => {
  const draft = (state: PlanDraftCard['state']): Card => ({ kind: 'plan_draft', id: `d-${state}`, state, goal: 'g', steps: [{ at: 1, action: 'a', problems: ['step 1: x'] }], ts: 1 });

  it('a draft still being written or checked comes back broken, saying why; one that had ended stays as it was', () => {
    const [writing, checking, published, repairing] = settleInterruptedCards([draft('writing'), draft('checking'), draft('published'), draft('repairing')]) as PlanDraftCard[];
    for (const d of [writing!, checking!]) {
      assert.equal(d.state, 'broken');
      assert.deepEqual(d.problems, ['Interrupted: the task was closed while the Planner wrote this plan, so it cannot be executed.']);
      assert.equal(d.steps.length, 1, 'what had arrived is still shown');
      assert.ok(PlanDraftCard.safeParse(d).success);
    }
    assert.deepEqual(published, draft('published'));
    assert.deepEqual(repairing, draft('repairing'));
  });
});
