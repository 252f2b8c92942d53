import type { Permission, RoleId } from '../protocol';
import { plannerPrompt } from './prompts/planner';
import { actorPrompt } from './prompts/actor';

/** Roles are data: a new read-only role (e.g. Reviewer) is one more row. */
export interface RoleDef {
  id: RoleId;
  label: string;
  permissions: readonly Permission[];
  /** Whether the role may be offered `run_command` at all (the Planner gets no shell). */
  shell: boolean;
  systemPrompt: string;
}

export const ROLES: Record<RoleId, RoleDef> = {
  planner: { id: 'planner', label: 'Planner', permissions: ['read'], shell: false, systemPrompt: plannerPrompt },
  actor: { id: 'actor', label: 'Actor', permissions: ['read', 'write', 'create', 'delete', 'execute'], shell: true, systemPrompt: actorPrompt },
};

export function roleAllows(role: RoleDef, needs: readonly Permission[]): boolean {
  return needs.every((p) => role.permissions.includes(p));
}
