import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { validatePlan, lexicallyInside } from '../../../src/core/plans/validatePlan';
import { PRODUCT_ROLES } from '../../../src/core/roles/roles';
import { productToolRegistry } from '../../../src/core/tools';

/** The names plan steps may use with the product's registries. */
const STEP_TOOLS = productToolRegistry().stepTools(PRODUCT_ROLES);

export function samplePlan(overrides: Record<string, unknown> = {}) {
  return {
    format_version: '1.0',
    goal: 'Add a --verbose flag to the CLI',
    steps: [
      { step_number: 1, action: 'Add a verbose option to parseArgs in src/args.ts', reason: 'the flag must be parsed', tools_needed: ['read_file', 'edit_file'], estimated_time: '2m', files: ['src/args.ts'] },
      { step_number: 2, action: 'Run the unit tests with npm test', reason: 'check nothing broke', tools_needed: ['run_command'], estimated_time: '1m', files: [] },
    ],
    estimated_total_time: '3m',
    risks: ['none'],
    prerequisites: [],
    ...overrides,
  };
}

describe('validatePlan', () => {
  let ws: string;
  before(() => { ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-plan-'))); });
  after(() => fs.rmSync(ws, { recursive: true, force: true }));

  it('accepts a good plan', async () => {
    const v = await validatePlan(samplePlan(), { isInside: lexicallyInside([ws]), stepTools: STEP_TOOLS });
    assert.equal(v.ok, true);
    assert.equal(v.plan?.steps.length, 2);
  });

  it('names the step for an unknown tool, a wrong number and a file outside the workspace', async () => {
    const p = samplePlan();
    p.steps[1].tools_needed = ['sed'];
    p.steps[1].step_number = 3;
    p.steps[0].files = ['../../etc/passwd'];
    const v = await validatePlan(p, { isInside: lexicallyInside([ws]), stepTools: STEP_TOOLS });
    assert.equal(v.ok, false);
    assert.ok(v.errors.includes("step 2: tools_needed names unknown tool 'sed'"), v.errors.join('\n'));
    assert.ok(v.errors.includes('step 2: step_number is 3, expected 2 (steps are numbered 1..n in order)'), v.errors.join('\n'));
    assert.ok(v.errors.includes("step 1: file '../../etc/passwd' goes up with '..' and is outside the workspace"), v.errors.join('\n'));
    assert.equal(v.errors.length, 3);
  });

  it('rejects a plan without steps, and absolute paths (a sibling folder sharing the prefix, or one inside)', async () => {
    const v = await validatePlan(samplePlan({ steps: [] }), { stepTools: STEP_TOOLS });
    assert.deepEqual(v.errors, ['steps: the plan has no steps; at least one is needed']);
    const p = samplePlan();
    p.steps[0].files = [`${ws}-evil/x.ts`, `${ws}/inside.ts`];
    const w = await validatePlan(p, { isInside: lexicallyInside([ws]), stepTools: STEP_TOOLS });
    // A scope is matched later against workspace-relative paths: an absolute one is refused even inside.
    assert.deepEqual(w.errors, [
      `step 1: file '${ws}-evil/x.ts' is an absolute path; name it relative to the workspace`,
      `step 1: file '${ws}/inside.ts' is an absolute path; name it relative to the workspace`,
    ]);
  });

  it('rejects file scopes that escape the workspace however they are matched: globs with .., home, drive letters', async () => {
    const p = samplePlan();
    p.steps[0].files = ['src/../../**', '**/../secrets/*', '~/.ssh/*', 'C:\\Windows\\x', ' ', 'src/**/*.ts', './README.md', 'docs/'];
    const v = await validatePlan(p, { isInside: lexicallyInside([ws]), stepTools: STEP_TOOLS });
    assert.equal(v.ok, false);
    assert.deepEqual(v.errors, [
      "step 1: file 'src/../../**' goes up with '..' and is outside the workspace",
      "step 1: file '**/../secrets/*' goes up with '..' and is outside the workspace",
      "step 1: file '~/.ssh/*' is an absolute path; name it relative to the workspace",
      "step 1: file 'C:\\Windows\\x' is an absolute path; name it relative to the workspace",
      'step 1: files has an empty entry',
    ]);
  });

  it('rejects commands and checks that are empty or not a command line, and accepts real ones', async () => {
    const p: any = samplePlan();
    p.steps[0].commands = ['npm test -- --grep args', '   ', '$ npm run build', 'Run the unit tests'];
    p.steps[0].check = 'Verify that the build passes.';
    p.steps[1].commands = ['npm test'];
    p.steps[1].check = 'npm test\nrm -rf build';
    const v = await validatePlan(p, { isInside: lexicallyInside([ws]), stepTools: STEP_TOOLS });
    assert.equal(v.ok, false);
    assert.deepEqual(v.errors, [
      'step 1: commands[1] is empty; give a command line or leave it out',
      "step 1: commands[2] '$ npm run build' starts with a '$ ' prompt; give the command line alone",
      "step 1: commands[3] 'Run the unit tests' reads as a sentence, not a command line; give the exact command (e.g. 'npm test')",
      "step 1: check 'Verify that the build passes.' reads as a sentence, not a command line; give the exact command (e.g. 'npm test')",
      "step 2: check 'npm test\nrm -rf build' spans several lines; give one command line (join commands with &&)",
    ]);
    const good: any = samplePlan();
    good.steps[0].commands = ['npm test -- --grep args', 'git diff --stat', 'FOO=1 make check'];
    good.steps[0].check = 'grep -q verbose src/args.ts';
    good.steps[1].check = 'npm test';
    const ok = await validatePlan(good, { isInside: lexicallyInside([ws]), stepTools: STEP_TOOLS });
    assert.deepEqual(ok.errors, []);
    assert.equal(ok.plan?.steps[0].check, 'grep -q verbose src/args.ts');
  });

  it('reports shape errors one per line with the step and field', async () => {
    const p: any = samplePlan({ format_version: '2' });
    delete p.steps[0].action;
    p.steps[1].files = 'src/a.ts';
    const v = await validatePlan(p, { stepTools: STEP_TOOLS });
    assert.equal(v.ok, false);
    assert.ok(v.errors.some((e) => e.startsWith('format_version:')), v.errors.join('\n'));
    assert.ok(v.errors.some((e) => e.startsWith('step 1: action:')), v.errors.join('\n'));
    assert.ok(v.errors.some((e) => e.startsWith('step 2: files:')), v.errors.join('\n'));
    assert.ok(v.errors.every((e) => !e.includes('\n')));
  });

  it('treats nulls from a strict-schema answer as absent and refuses non-objects', async () => {
    assert.equal((await validatePlan({ ...samplePlan(), extra: null }, { stepTools: STEP_TOOLS })).ok, true);
    const v = await validatePlan('just text', { stepTools: STEP_TOOLS });
    assert.equal(v.ok, false);
    assert.ok(v.errors.includes('the plan must be a JSON object'));
  });

  it('undoes a wrapping envelope ({"plan": …} or a JSON string) but still checks the plan', async () => {
    assert.equal((await validatePlan({ plan: samplePlan() }, { stepTools: STEP_TOOLS })).ok, true);
    assert.equal((await validatePlan(JSON.stringify(samplePlan()), { stepTools: STEP_TOOLS })).ok, true);
    assert.equal((await validatePlan({ plan: JSON.stringify(samplePlan()) }, { stepTools: STEP_TOOLS })).ok, true);
    const bad = samplePlan();
    bad.steps[0].tools_needed = ['sed'];
    assert.deepEqual((await validatePlan({ plan: bad }, { stepTools: STEP_TOOLS })).errors, ["step 1: tools_needed names unknown tool 'sed'"]);
    assert.equal((await validatePlan({ other: 1 }, { stepTools: STEP_TOOLS })).ok, false);
  });
});
