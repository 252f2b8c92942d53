import assert from 'node:assert/strict';
import { extractPlanFlags } from '../../../src/cli/planCommand';

describe('tandem plan / run --plan arguments', () => {
  it('turns `plan ... --out FILE` into a Planner run and keeps the file', () => {
    assert.deepEqual(extractPlanFlags(['plan', '--model', 'm', 'add a flag', '--out', 'p.json']),
      { mode: 'plan', argv: ['run', '--role', 'planner', '--model', 'm', 'add a flag'], out: 'p.json' });
    assert.deepEqual(extractPlanFlags(['plan', '--out=p.json', 'x']), { mode: 'plan', argv: ['run', '--role', 'planner', 'x'], out: 'p.json' });
  });
  it('refuses plan without --out, or with --role actor', () => {
    assert.match((extractPlanFlags(['plan', 'x']) as any).error, /--out FILE.json/);
    assert.match((extractPlanFlags(['plan', '--role', 'actor', 'x', '--out', 'p']) as any).error, /--role actor is not allowed/);
    assert.match((extractPlanFlags(['plan', 'x', '--out']) as any).error, /needs a file name/);
  });
  it('turns `run --plan FILE` into an Actor run with a placeholder prompt', () => {
    const r = extractPlanFlags(['run', '--role', 'actor', '--plan', 'p.json', '--json']);
    assert.deepEqual(r, { mode: 'execute', argv: ['run', '--role', 'actor', '--json', '--', '(execute the plan in p.json)'], file: 'p.json' });
    assert.equal((extractPlanFlags(['run', '--plan', 'p.json']) as any).argv[2], 'actor', 'the role defaults to actor');
    assert.match((extractPlanFlags(['run', '--role', 'planner', '--plan', 'p.json']) as any).error, /needs --role actor/);
  });
  it('leaves other commands alone', () => {
    assert.deepEqual(extractPlanFlags(['run', 'hello', '--json']), { mode: 'none', argv: ['run', 'hello', '--json'] });
  });
});
