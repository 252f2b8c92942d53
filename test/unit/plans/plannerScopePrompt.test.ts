import assert from 'node:assert/strict';
import { PRODUCT_ROLES } from '../../../src/core/roles/roles';
import { productToolRegistry } from '../../../src/core/tools';
import { planJsonSchema } from '../../../src/core/schemas/planJsonSchema';
import { actorBrief, stepInstruction } from '../../../src/core/plans/actorBrief';
import { validatePlan } from '../../../src/core/plans/validatePlan';
import type { Plan } from '../../../src/protocol';

const STEP_TOOLS = productToolRegistry().stepTools(PRODUCT_ROLES);
const planner = PRODUCT_ROLES.planner!;

/** The example inside the Planner's prompt: the one plan every Planner request teaches from. */
function examplePlan(): unknown {
  const text = planner.systemPrompt({ stepTools: STEP_TOOLS });
  const line = text.split('\n').find((l) => l.startsWith('{"format_version"'));
  assert.ok(line, 'the Planner prompt carries an example plan');
  return JSON.parse(line);
}

describe('step scopes: what the Planner is asked for and what the Actor is shown', () => {
  it("the Planner's prompt asks for each step's files, commands and check, and its example declares them", async () => {
    const text = planner.systemPrompt({ stepTools: STEP_TOOLS });
    assert.match(text, /files = the paths or globs it changes/);
    assert.match(text, /commands = the command lines or prefixes it runs/);
    assert.match(text, /check = one command whose exit code 0 proves the step worked/);
    const example = examplePlan() as Plan;
    for (const s of example.steps) {
      assert.ok(Array.isArray(s.files) && Array.isArray(s.commands) && typeof s.check === 'string', `step ${s.step_number} declares a scope`);
    }
    // The example must itself pass the validation a model's plan gets.
    const v = await validatePlan(example, { stepTools: STEP_TOOLS });
    assert.deepEqual(v.errors, []);
  });

  it('the strict plan schema requires files, commands and check on every step (null allowed for commands/check)', () => {
    const schema = planJsonSchema(STEP_TOOLS) as any;
    const step = schema.properties.steps.items;
    for (const k of ['files', 'commands', 'check']) assert.ok(step.required.includes(k), `${k} is required`);
    assert.equal(step.additionalProperties, false);
  });

  it("the Actor's brief and each step's instruction show the step's scope and check", () => {
    const plan = examplePlan() as Plan;
    const brief = actorBrief(plan, 2);
    assert.match(brief, /1\. In src\/args\.ts[^\n]*Files: src\/args\.ts\. Commands: none\. Check \(run after the step; exit 0 = done\): grep -q verbose src\/args\.ts\./);
    assert.match(brief, /2\. [^\n]*Files: src\/args\.ts, test\/args\.test\.ts\. Commands: npm test\. Check[^\n]*npm test\./);
    assert.match(brief, /anything else is an amendment the user must allow/);
    assert.match(stepInstruction(plan, 2), /Files: src\/args\.ts, test\/args\.test\.ts\. Commands: npm test\./);
  });
});
