import assert from 'node:assert/strict';
import { Plan, Question } from '../../../src/protocol';
import { planJsonSchema, planResponseFormat } from '../../../src/core/schemas/planJsonSchema';
import { toStrictJsonSchema, dropNulls } from '../../../src/core/schemas/strictJsonSchema';
import { PRODUCT_ROLES } from '../../../src/core/roles/roles';
import { productToolRegistry } from '../../../src/core/tools';

/** The names plan steps may use with the product's registries. */
const STEP_TOOLS = productToolRegistry().stepTools(PRODUCT_ROLES);

/** Walks every object node of a JSON schema. */
function objects(node: any, out: any[] = []): any[] {
  if (!node || typeof node !== 'object') return out;
  if (node.type === 'object' || (Array.isArray(node.type) && node.type.includes('object'))) out.push(node);
  for (const v of Object.values(node)) {
    if (Array.isArray(v)) v.forEach((x) => objects(x, out));
    else if (v && typeof v === 'object') objects(v, out);
  }
  return out;
}

describe('plan JSON schema (strict structured outputs)', () => {
  it('lists every property as required and forbids extra properties on every object', () => {
    const schema = planJsonSchema(STEP_TOOLS);
    const objs = objects(schema);
    assert.ok(objs.length >= 2, 'the plan and its step are objects');
    for (const o of objs) {
      assert.equal(o.additionalProperties, false);
      assert.deepEqual([...o.required].sort(), Object.keys(o.properties).sort());
    }
    assert.deepEqual(Object.keys((schema as any).properties).sort(),
      ['estimated_total_time', 'format_version', 'goal', 'prerequisites', 'risks', 'steps']);
  });

  it('keeps the constraints a grammar can enforce: a non-empty goal, at least one step, bounded strings and lists', () => {
    const schema = planJsonSchema(STEP_TOOLS) as any;
    assert.equal(schema.properties.goal.minLength, 1);
    assert.equal(schema.properties.goal.maxLength, 2000);
    assert.equal(schema.properties.steps.minItems, 1);
    assert.equal(schema.properties.steps.maxItems, 50);
    const step = schema.properties.steps.items;
    assert.equal(step.properties.action.minLength, 1);
    assert.equal(step.properties.tools_needed.maxItems, 12);
    assert.equal(step.properties.estimated_time.maxLength, 64);
  });

  it('the portable variant (after an endpoint refused string lengths) keeps everything but the lengths', () => {
    const rf = planResponseFormat(STEP_TOOLS, { portable: true });
    const text = JSON.stringify(rf.json_schema.schema);
    for (const k of ['"maxLength"', '"minLength"']) assert.ok(!text.includes(k), `${k} left in the portable schema`);
    assert.equal((rf.json_schema.schema as any).properties.steps.minItems, 1);
    assert.ok(text.includes('"enum"'));
  });

  it('drops keywords no endpoint needs and pins tools_needed to the Actor tools', () => {
    const text = JSON.stringify(planJsonSchema(STEP_TOOLS));
    for (const k of ['"$schema"', '"const"', '"default"']) assert.ok(!text.includes(k), `${k} left in the schema`);
    const step = (planJsonSchema(STEP_TOOLS) as any).properties.steps.items;
    assert.deepEqual([...step.properties.tools_needed.items.enum].sort(),
      ['apply_patch', 'delete_file', 'diagnostics', 'document_outline', 'edit_file', 'find_files', 'find_references', 'find_symbol', 'go_to_definition', 'hover_type', 'list_files', 'read_file', 'rename_symbol', 'run_command', 'search', 'write_file']);
    assert.deepEqual((planJsonSchema(STEP_TOOLS) as any).properties.format_version.enum, ['1.0']);
    const rf = planResponseFormat(STEP_TOOLS);
    assert.equal(rf.type, 'json_schema');
    assert.equal(rf.json_schema.strict, true);
  });

  it('makes optional properties nullable, and null answers parse after dropNulls', () => {
    const schema = toStrictJsonSchema(Question) as any;
    const opt = schema.properties.options.items;
    assert.deepEqual(opt.required.sort(), ['description', 'label', 'value']);
    assert.deepEqual(opt.properties.description.type, ['string', 'null']);
    assert.deepEqual(schema.properties.context.type, ['string', 'null']);
    const answer = {
      question: 'Delete the old config?', context: null, severity: 'major', allow_custom: false, default: 'keep',
      options: [{ label: 'Keep', value: 'keep', description: null }, { label: 'Delete', value: 'delete', description: 'gone' }],
    };
    assert.equal(Question.safeParse(answer).success, false, 'zod optional() refuses null');
    assert.equal(Question.safeParse(dropNulls(answer)).success, true);
  });

  it('accepts the example plan the schema describes', () => {
    const plan = { format_version: '1.0', goal: 'g', steps: [{ step_number: 1, action: 'a', reason: 'r', tools_needed: ['edit_file'], estimated_time: '1m', files: ['a.ts'] }], estimated_total_time: '1m', risks: [], prerequisites: [] };
    assert.equal(Plan.safeParse(plan).success, true);
  });
});
