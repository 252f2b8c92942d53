/** What changed between plan versions, as the card shows it. */
import assert from 'node:assert/strict';
import { planVersionDiff } from '../../../src/core/plans/planVersionDiff';
import { goodPlan } from '../plans/planFixtures';

const step = (n: number, action: string, extra: Record<string, unknown> = {}) => ({ step_number: n, action, reason: '', tools_needed: ['read_file'], estimated_time: '1 min', files: [], ...extra });

describe('plan version diff', () => {
  it('pairs moved steps by action, reworded ones by slot, and says what was added and removed', () => {
    const v1 = goodPlan({ steps: [step(1, 'Read the config'), step(2, 'Change the parser', { files: ['src/p.ts'] }), step(3, 'Delete old tests')] });
    const v2 = goodPlan({ steps: [step(1, 'Add a fixture'), step(2, 'Read the config'), step(3, 'Change the parser', { files: ['src/p.ts', 'src/q.ts'], check: 'npm test' })] });
    const d = planVersionDiff(v1, v2, 1);
    assert.equal(d.from_version, 1);
    assert.deepEqual(d.added, [{ step: 1, action: 'Add a fixture' }]);
    assert.deepEqual(d.removed, [{ step: 3, action: 'Delete old tests' }]);
    assert.deepEqual(d.edited, [{ step: 3, from_step: 2, changes: [{ field: 'files', before: 'src/p.ts', after: 'src/p.ts, src/q.ts' }, { field: 'check', before: '', after: 'npm test' }] }]);
    assert.equal(d.unchanged, 1, 'the moved step is unchanged');
  });

  it('a reworded step in the same slot is an edit, not a removal and an addition', () => {
    const d = planVersionDiff(goodPlan({ steps: [step(1, 'Run npm test')] }), goodPlan({ steps: [step(1, 'Run npm run test:unit')] }), 2);
    assert.deepEqual([d.added, d.removed], [[], []]);
    assert.deepEqual(d.edited[0]!.changes, [{ field: 'action', before: 'Run npm test', after: 'Run npm run test:unit' }]);
    const same = planVersionDiff(goodPlan(), goodPlan(), 1);
    assert.deepEqual([same.added, same.removed, same.edited], [[], [], []], 'the same plan again: no change');
  });
});
