/**
 * The final plan request: used when a plan is required (`tandem plan`, Revise) and the Planner's
 * turn ended without a `propose_plan` call — e.g. a local model that ignores tools, since
 * llama.cpp does not enforce `tool_choice`. A `json_schema` response format *is* enforced by those
 * servers (as a grammar), so this request is the robust backstop; where the endpoint has no
 * structured outputs, the JSON is extracted from the text answer. Either way the answer goes
 * through the same validation and bounded repair as `propose_plan`.
 */
import type { Logger } from '../ports/ports';
import { extractJson } from './extractJson';
import { planResponseFormat } from '../schemas/planJsonSchema';
import type { PlanTurn } from './planTurn';
import { PLAN_AS_JSON_INSTRUCTION, planAsTextInstruction } from './repairPrompt';
import type { StructuredOutputs } from './structuredOutputs';

export interface PlanMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | null;
  [k: string]: unknown;
}

/** One tool-less chat completion; the loop's LLM client provides it. `onText`: each piece of the answer as it streams. */
export type PlanCompleter = (
  messages: PlanMessage[],
  responseFormat: ReturnType<typeof planResponseFormat> | undefined,
  signal: AbortSignal,
  onText?: (delta: string) => void,
) => Promise<{ text: string }>;

export interface RequestPlanDeps {
  complete: PlanCompleter;
  structured: StructuredOutputs;
  logger: Logger;
  signal: AbortSignal;
}

/** Runs requests (first answer + repairs) until `turn` accepts or rejects a plan; returns the messages appended. */
export async function requestPlan(deps: RequestPlanDeps, history: PlanMessage[], turn: PlanTurn): Promise<PlanMessage[]> {
  const added: PlanMessage[] = [];
  let useSchema = deps.structured.use;
  added.push({ role: 'user', content: useSchema ? PLAN_AS_JSON_INSTRUCTION : planAsTextInstruction(turn.stepTools) });
  while (!turn.done) {
    let text: string;
    // The plan is shown step by step as it streams, like a propose_plan call (plans/planDraft.ts): an
    // answer held to the schema is JSON from its first character; text to extract from may start with
    // prose, so its draft starts at the JSON.
    const draft = turn.draft;
    draft?.newAnswer();
    let streamed = '';
    const schema = useSchema;
    const onText = draft ? (delta: string) => (schema ? draft.write(streamed += delta) : draft.writeText(streamed += delta)) : undefined;
    try {
      deps.logger.info(`plan: requesting the plan via ${useSchema ? 'response_format json_schema' : 'JSON extraction from text'}`);
      text = (await deps.complete([...history, ...added], useSchema ? planResponseFormat(turn.stepTools, { portable: deps.structured.portable }) : undefined, deps.signal, onText)).text;
      draft?.arrived();
    } catch (err) {
      draft?.streamFailed(err instanceof Error ? err.message : String(err), deps.signal.aborted);
      if (useSchema && deps.structured.fallBackAfter(err)) {
        // Still a schema, only without the constraints the endpoint refused.
        if (deps.structured.use) continue;
        useSchema = false;
        // The instruction must now describe the JSON, since no schema travels with the request.
        added[added.length - 1] = { ...added[added.length - 1], content: appendTextInstruction(added[added.length - 1].content, turn.stepTools) };
        continue;
      }
      throw err;
    }
    const path = useSchema ? 'json_schema' : 'extraction';
    const found = extractJson(text);
    const res = found.ok
      ? await turn.submit(text, found.value, path)
      : await turn.submit(text, undefined, path, found.error);
    added.push({ role: 'assistant', content: text });
    if (res.status === 'repair') added.push({ role: 'user', content: res.prompt });
    // A fallback model starts from the conversation and the instruction, not from the failed exchange.
    if (res.status === 'fallback') added.splice(1);
  }
  return added;
}

function appendTextInstruction(content: string | null, stepTools: readonly string[]): string {
  if (content === PLAN_AS_JSON_INSTRUCTION) return planAsTextInstruction(stepTools);
  return `${content ?? ''}\n${planAsTextInstruction(stepTools)}`;
}
