import assert from 'node:assert/strict';
import type { Card } from '../../../src/protocol';
import { firstFailureLine } from '../../../src/protocol/failureLine';
import { buildTaskSummary } from '../../../src/core/history/taskSummary';

const user = (id: string, text: string): Card => ({ kind: 'text', id, author: 'user', text, ts: 1 });
const edit = (id: string, path: string, added: number, removed: number, extra: Record<string, unknown> = {}): Card =>
  ({ kind: 'tool_call', id, call_id: `c-${id}`, tool: 'edit_file', summary: path, args: {}, status: 'done', approval: { kind: 'edit', path, added, removed }, ts: 1, ...extra }) as Card;
const cmd = (id: string, command: string, code: number): Card =>
  ({ kind: 'tool_call', id, call_id: `c-${id}`, tool: 'run_command', summary: command, args: {}, status: 'done', approval: { kind: 'command', command }, exit: { outcome: code === 0 ? 'success' : 'failed', code }, ts: 1 }) as Card;
const usage = (id: string, cost: number): Card => ({ kind: 'usage', id, model: 'm', role: 'actor', tokens_in: 100, tokens_out: 10, latency_ms: 5, cost_usd: cost, outcome: 'ok', ts: 1 });

describe('task summary card (when a run ends)', () => {
  it('lists the task\'s changed files with their +N −M, this run\'s commands with exit codes, and the cost', () => {
    const cards = [
      user('u1', 'first'), edit('e1', 'a.ts', 2, 1), usage('g1', 0.01),
      user('u2', 'second'), edit('e2', 'a.ts', 3, 0), cmd('r1', 'npm test', 1), usage('g2', 0.02),
    ];
    const s = buildTaskSummary(cards, [{ path: 'a.ts', change: 'modified' }], 'done', 'sum-1', 7)!;
    assert.deepEqual(s.files, [{ path: 'a.ts', change: 'modified', added: 5, removed: 1 }]);
    assert.deepEqual(s.commands, [{ command: 'npm test', exit: { outcome: 'failed', code: 1 } }]);
    assert.ok(Math.abs(s.cost_usd! - 0.03) < 1e-9);
    assert.equal(s.tokens_in, 200);
    assert.equal(s.outcome, 'done');
  });

  it('a plan step\'s check is not listed again among the commands run (the steps list it with its result), and a run of checks alone still ends with a summary', () => {
    const check = (id: string, command: string, step: number): Card => ({ ...cmd(id, command, 0), exit: undefined, check_step: step }) as Card;
    const cards = [user('u', 'go'), edit('e1', 'a.ts', 1, 1), cmd('r1', 'wc -l a.ts', 0), check('k1', 'grep -q x a.ts', 1)];
    const s = buildTaskSummary(cards, [{ path: 'a.ts', change: 'modified' }], 'done', 's')!;
    assert.deepEqual(s.commands.map((c) => c.command), ['wc -l a.ts']);
    assert.ok(buildTaskSummary([user('u', 'check again'), check('k2', 'npm test', 1)], [], 'done', 's2'), 'a run that only checked still gets its summary');
  });

  it('a run that changed nothing and ran nothing gets no summary', () => {
    const cards = [user('u1', 'edit'), edit('e1', 'a.ts', 1, 1), user('u2', 'what is x?'), { kind: 'text', id: 't', author: 'assistant', text: 'x is 1', ts: 1 } as Card];
    assert.equal(buildTaskSummary(cards, [{ path: 'a.ts', change: 'modified' }], 'done', 's'), undefined);
  });

  it('says how the executed plan\'s steps ended; reverted edits do not count', () => {
    const plan: Card = {
      kind: 'plan', id: 'p', version: 1, errors: [], ts: 1, step_states: { 1: 'done', 2: 'failed', 3: 'pending' },
      plan: { format_version: '1.0', goal: 'g', estimated_total_time: '', risks: [], prerequisites: [], steps: [1, 2, 3].map((n) => ({ step_number: n, action: `s${n}`, reason: '', tools_needed: [], estimated_time: '', files: [] })) },
    } as Card;
    const cards = [user('u', 'go'), plan, edit('e1', 'b.ts', 4, 0, { reverted: true }), edit('e2', 'c.ts', 1, 0)];
    const s = buildTaskSummary(cards, [{ path: 'c.ts', change: 'created' }], 'error', 's')!;
    assert.deepEqual(s.steps, { done: 1, failed: 1, unverified: 0, stopped: 0, total: 3 });
    assert.deepEqual(s.files, [{ path: 'c.ts', change: 'created', added: 1, removed: 0 }]);
  });
  it('a failed check\'s reason quotes its first assertion or error line once, not the runner\'s summary', () => {
    const tap = [
      'TAP version 13', '# Subtest: adds', 'not ok 1 - adds', '  ---', '  error: |-', '    Expected values to be strictly equal:', '',
      '    190 !== 180', '  code: ERR_ASSERTION', '  ...', 'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal: 190 !== 180',
      '1..1', '# tests 1', '# pass 0', '# fail 1', 'npm ERR! Test failed.',
    ].join('\n');
    const plan: Card = {
      kind: 'plan', id: 'p', version: 1, errors: [], ts: 1, step_states: { 1: 'failed' },
      step_evidence: { 1: { why: ['check `npm test` exited 1'], check: { command: 'npm test', exit_code: 1, output: tap } } },
      plan: { format_version: '1.0', goal: 'g', estimated_total_time: '', risks: [], prerequisites: [], steps: [{ step_number: 1, action: 's1', reason: '', tools_needed: [], estimated_time: '', files: [], check: 'npm test' }] },
    } as unknown as Card;
    const s = buildTaskSummary([user('u', 'go'), plan, cmd('k', 'npm test', 1)], [], 'done', 's')!;
    assert.equal(s.reason, "Step 1's check failed: `npm test` exited 1: AssertionError [ERR_ASSERTION]: Expected values to be strictly equal: 190 !== 180");
    assert.equal(firstFailureLine('\x1b[31m✖ adds (2ms)\x1b[0m\n# fail 1'), '✖ adds (2ms)');
    assert.equal(firstFailureLine('src/a.ts(3,1): error TS2322: Type \'string\' is not assignable'), "src/a.ts(3,1): error TS2322: Type 'string' is not assignable");
    assert.equal(firstFailureLine('Tests: 1 failed, 3 passed\nnpm ERR! code 1'), undefined, 'summary lines alone say nothing new');
    assert.equal(firstFailureLine(''), undefined);
  });
});
