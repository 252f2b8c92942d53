import { ReviewVerdict } from '../../protocol';
import { portableSchema, toStrictJsonSchema } from '../schemas/strictJsonSchema';

export const VERDICT_SCHEMA_NAME = 'tandem_review';

/** The `response_format` for a verdict request: the zod `ReviewVerdict` as a strict schema (like the plan's). */
export function verdictResponseFormat(opts: { portable?: boolean } = {}) {
  const schema = toStrictJsonSchema(ReviewVerdict);
  return {
    type: 'json_schema' as const,
    json_schema: { name: VERDICT_SCHEMA_NAME, strict: true, schema: opts.portable ? portableSchema(schema) : schema },
  };
}
