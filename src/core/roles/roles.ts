import { ROLE_TABLE, RoleRegistry, type ProductRoleId, type RoleInfo } from '../../protocol';
import { plannerPrompt } from './plannerPrompt';
import { actorPrompt } from './actorPrompt';
import { reviewerPrompt } from './reviewerPrompt';
import type { PromptContext } from './promptContext';

export type { PromptContext };

/** A role as the core runs it: the shared row plus its system prompt. */
export interface RoleDef extends RoleInfo {
  systemPrompt(ctx: PromptContext): string;
}

/** Each product role's prompt, keyed by the table's ids (a missing or extra key does not compile). */
const PROMPTS: Record<ProductRoleId, RoleDef['systemPrompt']> = {
  planner: plannerPrompt,
  actor: actorPrompt,
  reviewer: reviewerPrompt,
};

/** The product's roles with their prompts: the registry every host uses unless told otherwise. */
export const PRODUCT_ROLES = new RoleRegistry<RoleDef>(ROLE_TABLE.map((r) => ({ ...r, systemPrompt: PROMPTS[r.id] })));
