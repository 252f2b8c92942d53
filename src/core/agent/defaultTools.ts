import type { Tool } from '../tools/tool';
import { askQuestionTool } from '../tools/askQuestion';
import { proposePlanTool } from '../tools/proposePlan';
import { failStepTool } from '../tools/failStep';

/**
 * The registry an Agent uses unless given one: the workspace tools plus the tools the loop
 * drives itself (questions and plans). Each is filtered per role and checked at dispatch.
 */
/** Tools the loop drives itself (cards of their own, plans): offered alongside the workspace tools. */
export const LOOP_TOOLS: readonly Tool[] = [askQuestionTool, proposePlanTool, failStepTool];

export function defaultToolRegistry(): Tool[] {
  return [...LOOP_TOOLS];
}
