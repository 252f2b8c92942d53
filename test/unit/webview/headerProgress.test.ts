import assert from 'node:assert/strict';
import { loadWebviewModule } from './loadWebviewModule';
import { sampleCard } from '../tools/toolSamples';

type P = typeof import('../../../webview-ui/src/state/planProgress');
type F = typeof import('../../../webview-ui/src/state/foldedCards');

const steps = ['Read the cart', 'Fix the total', 'Update the tests'].map((action, i) => ({ step_number: i + 1, action, reason: '', tools_needed: [], estimated_time: '', files: [] }));
const plan = (extra: Record<string, unknown>) => ({ kind: 'plan', id: 'p', version: 2, errors: [], ts: 1, step_states: {}, plan: { format_version: '1.0', goal: 'g', estimated_total_time: '', risks: [], prerequisites: [], steps }, ...extra });

describe('webview: sticky plan progress and folded cards', () => {
  let P: P;
  let F: F;
  before(async () => {
    P = await loadWebviewModule<P>('webview-ui/src/state/planProgress.ts');
    F = await loadWebviewModule<F>('webview-ui/src/state/foldedCards.ts');
  });

  it('the executing plan\'s running step, as "n/total · action", with every step\'s state', () => {
    const p = P.planProgress([plan({ executing: true, step_states: { 1: 'done', 2: 'done', 3: 'running' } })] as never)!;
    assert.equal(`${p.position}/${p.total} · ${p.action}`, '3/3 · Update the tests');
    assert.deepEqual(p.steps.map((s) => s.state), ['done', 'done', 'running']);
    // Between steps, the next one still to do.
    assert.equal(P.planProgress([plan({ executing: true, step_states: { 1: 'done' } })] as never)!.position, 2);
  });

  it('nothing when no plan is executing', () => {
    assert.equal(P.planProgress([plan({ step_states: { 1: 'done' } })] as never), null);
    assert.equal(P.planProgress([] as never), null);
  });

  it('routine usage lines and the tool cards of propose_plan / ask_question are folded; failures are not', () => {
    const tool = (t: string, status: string) => sampleCard(t, t, status);
    assert.equal(F.isFolded(tool('propose_plan', 'done') as never), true);
    assert.equal(F.isFolded(tool('ask_question', 'done') as never), true);
    assert.equal(F.isFolded(tool('propose_plan', 'error') as never), false);
    assert.equal(F.isFolded(tool('read_file', 'done') as never), false);
    assert.equal(F.isFolded({ ...tool('ask_question', 'done'), display: undefined } as never), false, 'a card with no display (an older version\'s) stays in view');
    const usage = (outcome: string) => ({ kind: 'usage', id: 'u', model: 'm', role: 'actor', tokens_in: 1, tokens_out: 1, latency_ms: 1200, outcome, ts: 1 });
    assert.equal(F.isFolded(usage('stop') as never), true);
    assert.equal(F.isFolded(usage('length') as never), false, 'a cut-off answer stays in view');
    assert.equal(F.lastCallUsage([usage('stop')] as never, (u) => `${u.model} ${u.latency_ms}`), 'm 1200');
  });
});
