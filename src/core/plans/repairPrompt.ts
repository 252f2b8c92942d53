/**
 * What goes back to the model when its plan failed validation: the error lines verbatim (one per
 * problem, naming the step), the legal tool names, and what to do next. Short on purpose: it is
 * sent inside the same conversation, whose prefix the server has cached.
 */
export function planRepairPrompt(errors: readonly string[], via: 'tool' | 'json', stepTools: readonly string[]): string {
  const next = via === 'tool'
    ? 'Call propose_plan again with the whole corrected plan.'
    : 'Answer again with only the whole corrected plan as JSON.';
  return [
    'The plan was rejected:',
    ...errors.map((e) => `- ${e}`),
    `tools_needed may only name: ${stepTools.join(', ')}. Paths in files are relative to the workspace.`,
    next,
  ].join('\n');
}

/**
 * The instruction for a final plan request when the endpoint has no structured outputs: no schema
 * travels with it (and no tools), so it names what tools_needed may hold itself.
 */
export const planAsTextInstruction = (stepTools: readonly string[]): string =>
  'Now write the plan. Answer with only one ```json block holding an object with: format_version "1.0", goal, ' +
  'steps [{step_number, action, reason, tools_needed, estimated_time, files}], estimated_total_time, risks, prerequisites. ' +
  `tools_needed only from: ${stepTools.join(', ')}.`;

/** The instruction for a final plan request constrained by the JSON schema. */
export const PLAN_AS_JSON_INSTRUCTION = 'Now write the plan as JSON matching the schema. Each step must be self-contained.';
