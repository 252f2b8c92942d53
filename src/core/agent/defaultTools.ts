import type { Tool } from '../tools/tool';
import { ALL_TOOLS } from '../tools';
import { askQuestionTool } from '../tools/askQuestion';
import { proposePlanTool } from '../tools/proposePlan';
import { failStepTool } from '../tools/failStep';

/**
 * Tools the loop drives itself: they show cards of their own (questions) or feed the plan
 * machinery (`ToolContext.ui` / `ToolContext.planning`), and may end the turn (`endTurn`).
 * This list is the seam for such tools: add one here and it is offered (subject to its
 * `available()` and permissions) and dispatched like any other.
 */
export const LOOP_TOOLS: readonly Tool[] = [askQuestionTool, proposePlanTool, failStepTool];

/** The registry an Agent uses unless given one: the workspace tools plus the loop's own. */
export function defaultToolRegistry(): Tool[] {
  return [...ALL_TOOLS, ...LOOP_TOOLS];
}
