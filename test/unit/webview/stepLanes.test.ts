import assert from 'node:assert/strict';
import { loadWebviewModule } from './loadWebviewModule';

type L = typeof import('../../../webview-ui/src/state/stepLanes');

const card = (id: string, step?: number) => ({ kind: 'text', id, author: 'assistant', text: id, ts: 0, ...(step ? { step } : {}) });

describe('plan step lanes in the chat', () => {
  let M: L;
  before(async () => {
    M = await loadWebviewModule<L>('webview-ui/src/state/stepLanes.ts');
  });

  it('two steps running side by side: each step\'s cards follow its own header, not interleaved; cards of no step keep their place', () => {
    const cards = [card('plan'), card('a1', 1), card('b1', 2), card('a2', 1), card('b2', 2), card('note'), card('a3', 1)];
    const { rows, indexOf } = M.laneRows(cards as never, new Set());
    assert.deepEqual(rows.map((r) => r.id), ['plan', 'lane:0#1', 'a1', 'a2', 'a3', 'lane:0#2', 'b1', 'b2', 'note']);
    const lane = rows[1] as { kind: string; open: boolean; step_number: number };
    assert.deepEqual([lane.kind, lane.step_number, lane.open], ['lane', 1, true]);
    assert.equal(indexOf('b1'), 6);
    assert.equal(indexOf('nope'), -1);
  });

  it('a folded lane shows its header alone', () => {
    const cards = [card('a1', 1), card('b1', 2), card('a2', 1)];
    const { rows } = M.laneRows(cards as never, new Set(['lane:0#1']));
    assert.deepEqual(rows.map((r) => r.id), ['lane:0#1', 'lane:0#2', 'b1']);
  });

  it('a step of a later run (after the run\'s summary) gets a lane of its own', () => {
    const cards = [card('a1', 1), { kind: 'summary', id: 's', ts: 0 }, card('a2', 1)];
    assert.deepEqual(M.laneRows(cards as never, new Set()).rows.map((r) => r.id), ['lane:0#1', 'a1', 's', 'lane:1#1', 'a2']);
  });

  /** A step's check card as planRuns/runStepCheck.ts makes it. */
  const check = (id: string, step: number, status: string, text?: string) => ({
    kind: 'tool_call', id, call_id: `check-${id}`, tool: 'run_command', check_step: step, step, summary: `check of step ${step}`,
    args: { command: 'npm test' }, status, ...(status === 'done' ? { result: text } : text !== undefined ? { error: text } : {}), ts: 0,
  });
  const FAILED = 'Exit code: 1\nTAP version 13\nnot ok 1 - adds\nAssertionError [ERR_ASSERTION]: 190 !== 180\n# fail 1';

  it('a step\'s check that ran is said on its lane, once, not as a card of its own; its output goes with it', () => {
    const cards = [card('a1', 1), check('c1', 1, 'done', 'Exit code: 0\nok 1 - adds'), card('b1', 2)];
    const { rows } = M.laneRows(cards as never, new Set());
    assert.deepEqual(rows.map((r) => r.id), ['lane:0#1', 'a1', 'lane:0#2', 'b1']);
    assert.deepEqual((rows[0] as { check?: unknown }).check, { card_id: 'c1', command: 'npm test', passed: true, output: 'ok 1 - adds' });
    assert.equal((rows[2] as { check?: unknown }).check, undefined);
    // Folded, the lane still says its check.
    assert.equal((M.laneRows(cards as never, new Set(['lane:0#1'])).rows[0] as { check?: unknown }).check !== undefined, true);
  });

  it('a failed check says how it ended and its failure line on the lane while the run goes on; once the run\'s summary quotes them, only that it failed', () => {
    const running = [card('a1', 1), check('c1', 1, 'error', FAILED), card('b1', 2)];
    const lane = M.laneRows(running as never, new Set()).rows[0] as unknown as { check: Record<string, unknown> };
    assert.equal(lane.check.passed, false);
    assert.equal(lane.check.how, 'exit 1');
    assert.equal(lane.check.why, 'AssertionError [ERR_ASSERTION]: 190 !== 180');
    assert.match(String(lane.check.output), /^TAP version 13/);
    const ended = [...running, { kind: 'summary', id: 's', failed_step: 1, reason: "Step 1's check failed: `npm test` exited 1: AssertionError [ERR_ASSERTION]: 190 !== 180", ts: 0 }];
    const after = M.laneRows(ended as never, new Set()).rows[0] as unknown as { check: Record<string, unknown> };
    assert.equal(after.check.passed, false);
    assert.equal(after.check.how, undefined, 'the summary says the exit code');
    assert.equal(after.check.why, undefined, 'the summary quotes the failure line');
    // Another step's failure in the summary leaves this lane's reason where it is.
    const other = [...running, { kind: 'summary', id: 's', failed_step: 2, reason: 'Step 2 failed', ts: 0 }];
    assert.equal((M.laneRows(other as never, new Set()).rows[0] as unknown as { check: Record<string, unknown> }).check.how, 'exit 1');
  });

  it('a check waiting for approval, running, rejected or stopped stays a card of its own (it asks something, or the user decided)', () => {
    for (const status of ['pending', 'running', 'rejected', 'stopped']) {
      const cards = [card('a1', 1), check('c1', 1, status, status === 'rejected' ? 'Rejected: not now' : undefined)];
      const { rows } = M.laneRows(cards as never, new Set());
      assert.deepEqual(rows.map((r) => r.id), ['lane:0#1', 'a1', 'c1'], status);
      assert.equal((rows[0] as { check?: unknown }).check, undefined, status);
    }
  });

  it('a chat without steps is the cards as they are', () => {
    const cards = [card('x'), card('y')];
    assert.deepEqual(M.laneRows(cards as never, new Set()).rows, cards);
  });
});
