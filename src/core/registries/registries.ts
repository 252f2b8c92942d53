import type { RoleRegistry } from '../../protocol';
import { PRODUCT_ROLES, type RoleDef } from '../roles/roles';
import { productToolRegistry } from '../tools';
import type { ToolRegistry } from '../tools/toolRegistry';

/**
 * The role and tool registries a host runs its agents with. Hosts take this as one parameter whose
 * default is the product's, so a test can run the real CLI or agent with a role or tools of its own.
 */
export interface Registries {
  roles: RoleRegistry<RoleDef>;
  /** A tool registry for a new agent (each agent may have providers added to its own). */
  tools(): ToolRegistry;
}

export const PRODUCT_REGISTRIES: Registries = { roles: PRODUCT_ROLES, tools: productToolRegistry };
