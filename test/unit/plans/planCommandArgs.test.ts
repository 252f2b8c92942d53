import assert from 'node:assert/strict';
import { parseArgs } from '../../../src/cli/args';

const error = (argv: string[]) => {
  const r = parseArgs(argv);
  assert.equal(r.kind, 'error', JSON.stringify(r));
  return (r as { message: string }).message;
};

describe('tandem plan / run --plan arguments', () => {
  it('turns `plan ... --out FILE` into a Planner run and keeps the file', () => {
    assert.deepEqual(parseArgs(['plan', '--model', 'm', 'add a flag', '--out', 'p.json']),
      { kind: 'run', mode: 'plan', role: 'planner', roleGiven: false, model: 'm', prompt: 'add a flag', out: 'p.json', answerDefault: false, json: false, noHistory: false, workspace: undefined, baseURL: undefined, approve: undefined, attach: [] });
    assert.deepEqual(parseArgs(['plan', '--out=p.json', 'x']), {
      kind: 'run', mode: 'plan', role: 'planner', roleGiven: false, prompt: 'x', out: 'p.json', answerDefault: false, json: false, noHistory: false, workspace: undefined, model: undefined, baseURL: undefined, approve: undefined, attach: [] });
  });
  it('refuses plan without --out, or with --role actor', () => {
    assert.match(error(['plan', 'x']), /--out FILE.json/);
    assert.match(error(['plan', '--role', 'actor', 'x', '--out', 'p']), /--role actor is not allowed/);
    assert.match(error(['plan', '--role', 'planner', '--role', 'actor', 'x', '--out', 'p']), /--role actor is not allowed/, 'a later --role cannot sneak the Actor in');
    assert.match(error(['plan', 'x', '--out']), /--out needs a file name/);
    assert.match(error(['plan', 'x', '--out', 'a', '--out', 'b']), /--out given twice/);
  });
  it('turns `run --plan FILE` into an Actor run with a placeholder prompt', () => {
    const r = parseArgs(['run', '--role', 'actor', '--plan', 'p.json', '--json']);
    assert.equal(r.kind, 'run');
    if (r.kind !== 'run') return;
    assert.deepEqual([r.mode, r.role, r.planFile, r.json, r.prompt], ['execute', 'actor', 'p.json', true, '(execute the plan in p.json)']);
    const byDefault = parseArgs(['run', '--plan', 'p.json']);
    assert.equal(byDefault.kind === 'run' && byDefault.role, 'actor', 'the role defaults to actor');
    assert.match(error(['run', '--role', 'planner', '--plan', 'p.json']), /needs --role actor/);
    assert.match(error(['run', '--plan', '--json']), /--plan needs a file name/);
  });
  it('leaves a plain run alone', () => {
    const r = parseArgs(['run', 'hello', '--json']);
    assert.ok(r.kind === 'run' && r.mode === 'turn' && r.prompt === 'hello' && r.json && r.role === 'planner');
  });
});
