/**
 * A plan step's check and a plan's repair, each said once in the chat: the plan card's step says its
 * check's outcome on one line (not "check: X" and "check X exited 0" both), and a failed propose_plan
 * call that the plan's draft tells is not a card of its own. (The lanes' side: stepLanes.test.ts.)
 */
import assert from 'node:assert/strict';
import { loadWebviewModule } from './loadWebviewModule';
import { sampleCard } from '../tools/toolSamples';

type V = typeof import('../../../webview-ui/src/state/stepCheckVerdict');
type F = typeof import('../../../webview-ui/src/state/foldedCards');

describe('webview: a check and a plan repair said once', () => {
  let V: V;
  let F: F;
  before(async () => {
    V = await loadWebviewModule<V>('webview-ui/src/state/stepCheckVerdict.ts');
    F = await loadWebviewModule<F>('webview-ui/src/state/foldedCards.ts');
  });

  it('the plan card\'s step: the check\'s verdict on its line, taken out of the reasons that restated it', () => {
    const failed = V.stepCheckVerdict({ why: ['the check `npm test` exited 1', 'write_file (write one.txt) failed'], check: { command: 'npm test', exit_code: 1, output: 'not ok 1' } })!;
    assert.deepEqual([failed.command, failed.result, failed.passed, failed.output], ['npm test', 'failed', false, 'not ok 1']);
    assert.deepEqual(failed.why, ['write_file (write one.txt) failed'], 'the other reasons stay');
    const passed = V.stepCheckVerdict({ why: [], check: { command: 'npm test', exit_code: 0, output: 'ok' } })!;
    assert.deepEqual([passed.result, passed.passed, passed.why], ['passed', true, []]);
    // A check that did not run says why on its line; one that ran out of time says it did not finish.
    const rejected = V.stepCheckVerdict({ why: ['the check `npm test` was not run: it was not approved'], check: { command: 'npm test', exit_code: null, output: '' } })!;
    assert.deepEqual([rejected.result, rejected.why], ['was not run: it was not approved', []]);
    const timedOut = V.stepCheckVerdict({ why: ['the check `npm test` did not finish'], check: { command: 'npm test', exit_code: null, output: 'slow' } })!;
    assert.deepEqual([timedOut.result, timedOut.why], ['did not finish', []]);
    // A reason about the check that is not its verdict stays (the check changed files).
    const changed = V.stepCheckVerdict({ why: ['the check `npm test` changed a.snap; a check should only verify'], check: { command: 'npm test', exit_code: 0, output: '' } })!;
    assert.equal(changed.why.length, 1);
    assert.equal(V.stepCheckVerdict({ why: ['no check was declared'] }), undefined);
    assert.equal(V.stepCheckVerdict(undefined), undefined);
  });

  it('a failed propose_plan call after the plan\'s draft is told by the draft, up to the plan card; a later failure, a fallback, or one with no draft stays', () => {
    const user = (id: string) => ({ kind: 'text', id, author: 'user', text: 'plan it', ts: 0 });
    const draft = { kind: 'plan_draft', id: 'd', state: 'repairing', steps: [], problems: ["step 2: tools_needed names unknown tool 'sed'"], ts: 0 };
    const failed = (id: string, error = "step 2: tools_needed names unknown tool 'sed'") => sampleCard(id, 'propose_plan', 'error', { error });
    const plan = { kind: 'plan', id: 'p', version: 1, errors: [], step_states: {}, plan: null, ts: 0 };
    const told = F.toldByDraft([user('u1'), draft, failed('t1'), sampleCard('t2', 'propose_plan', 'done'), plan, failed('t3', 'A plan was already submitted in this turn; end your turn.')] as never);
    assert.deepEqual([...told], ['t1'], 'the repaired call only: the one after the plan card says something the draft does not');
    assert.deepEqual([...F.toldByDraft([user('u1'), failed('t0')] as never)], [], 'no draft (a task saved before drafts): the card stays');
    assert.deepEqual([...F.toldByDraft([draft, user('u2'), failed('t4')] as never)], [], 'a draft of an earlier turn tells nothing of this one');
    const fallback = failed('t5', "not validated; the plan is asked of big-model:\nstep 2: tools_needed names unknown tool 'sed'");
    assert.deepEqual([...F.toldByDraft([draft, fallback] as never)], [], 'the hand-over to a fallback model is said nowhere else');
    assert.deepEqual([...F.toldByDraft([draft, sampleCard('r', 'read_file', 'error', { error: 'ENOENT' })] as never)], [], 'another tool\'s failure is its own');
  });
});
