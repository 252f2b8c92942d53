import { Plan } from '../../protocol';
import { portableSchema, toStrictJsonSchema } from './strictJsonSchema';

/**
 * The plan's strict JSON schema: from the zod `Plan`, with `tools_needed` narrowed to an enum of
 * `stepTools` — the tool registry's step tools — (a bounded name list is what reliably constrains
 * local models' decoders). Used both as `response_format.json_schema.schema` and as
 * `propose_plan`'s parameters.
 */
export function planJsonSchema(stepTools: readonly string[]): Record<string, unknown> {
  const schema = toStrictJsonSchema(Plan) as any;
  const step = schema.properties.steps.items;
  step.properties.tools_needed.items = { type: 'string', enum: [...stepTools] };
  // A plan has at least one step (validation says so too; in the schema a grammar enforces it).
  schema.properties.steps.minItems = 1;
  return schema;
}

export const PLAN_SCHEMA_NAME = 'tandem_plan';

/** The `response_format` for a plan request on endpoints with structured outputs. */
export function planResponseFormat(stepTools: readonly string[], opts: { portable?: boolean } = {}) {
  const schema = planJsonSchema(stepTools);
  return {
    type: 'json_schema' as const,
    json_schema: { name: PLAN_SCHEMA_NAME, strict: true, schema: opts.portable ? portableSchema(schema) : schema },
  };
}
