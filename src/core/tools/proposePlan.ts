/**
 * `propose_plan`: the Planner's plan, as the call's arguments. Why a tool and not only a final
 * structured request: the Planner explores with tools anyway, so ending with one more call keeps
 * the conversation in a single stream on every endpoint with tool calling, and its arguments are
 * the plan with nothing else to strip. The arguments are not trusted: they are checked here
 * (shape and semantics) and a failure goes back as the tool result — the error lines plus
 * "call propose_plan again" — at most `planRepairTries` times. For models that never call it
 * (local servers ignore `tool_choice`), the loop falls back to `requestPlan` (json_schema/extraction).
 */
import * as z from 'zod';
import { planJsonSchema } from '../schemas/planJsonSchema';
import type { Tool } from './tool';

export const proposePlanTool: Tool<unknown> = {
  name: 'propose_plan',
  // Self-contained steps and scopes are taught by the Planner's prompt; the description stays short (prompt budget).
  description: 'Submit the finished plan for the user to review.',
  // Anything: validation (with per-step error lines for a repair) happens in `run`, not in the generic parser.
  input: z.unknown(),
  // The plan schema's tools_needed enum is the registry's step tools as they stand for this request.
  parameters: ({ stepTools }) => planJsonSchema(stepTools),
  available: ({ role }) => role.mayPlan,
  permissions: [],
  conversational: true,
  readOnly: true,
  // Its plan card says it all: the tool card is folded once the plan is shown.
  display: {
    kind: 'plan', title: 'Propose a plan', fold: 'own_card',
    headline(input) {
      const i = input as { goal?: unknown; steps?: unknown } | null;
      const steps = Array.isArray(i?.steps) ? i!.steps.length : 0;
      return { verb: `plan: ${typeof i?.goal === 'string' ? i.goal.slice(0, 80) : '(no goal)'} (${steps} step${steps === 1 ? '' : 's'})` };
    },
  },
  async run(input, ctx) {
    const turn = ctx.planning?.currentTurn;
    if (!ctx.role.mayPlan || !turn) {
      return { content: 'propose_plan is only available to a role that plans, during its turn.', isError: true };
    }
    if (turn.done) {
      return { content: 'A plan was already submitted in this turn; end your turn.', isError: true, endTurn: true };
    }
    const raw = JSON.stringify(input, null, 2) ?? String(input);
    const res = await turn.submit(raw, input, 'tool');
    if (res.status === 'accepted') {
      return {
        content: `Plan v${res.record.version} is shown to the user, who will execute or revise it. End your turn now.`,
        display: `plan v${res.record.version} validated`,
        endTurn: true,
      };
    }
    if (res.status === 'closed') return { content: 'A plan was already submitted in this turn; end your turn.', isError: true, endTurn: true };
    if (res.status === 'repair') return { content: res.prompt, display: res.errors.join('\n'), isError: true };
    if (res.status === 'fallback') {
      return {
        content: 'The plan could not be validated after the allowed repairs; another model will write it. End your turn.',
        display: `not validated; the plan is asked of ${res.model}:\n${res.errors.join('\n')}`,
        isError: true,
        endTurn: true,
      };
    }
    return {
      content: `The plan could not be validated after ${turn.attempts.length - 1} repair(s); it is shown to the user as text and cannot be executed. End your turn.`,
      display: `this plan could not be validated:\n${res.record.errors.join('\n')}`,
      isError: true,
      endTurn: true,
    };
  },
};
