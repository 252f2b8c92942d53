/**
 * The read-only shell setting (off by default): roles that change nothing (the Planner, any other
 * role without write, create or delete permission) get `shell: 'readonly'`, so they may run
 * commands — `git log`, `ls -R`, a linter, the tests — in the sandbox with the whole workspace
 * read-only (writes go to a throwaway overlay) and no network. Roles are data: the setting yields a
 * registry whose read-only rows carry the capability; nothing asks which role is which. A role that
 * reviews keeps no shell: its verdict rests on what it is shown (the step's own check output), never
 * on commands of its choosing.
 */
import { RoleRegistry, roleChangesFiles } from '../../protocol';
import type { Registries } from './registries';

export function withReadOnlyShell(r: Registries): Registries {
  const roles = new RoleRegistry(r.roles.list.map((role) => (role.shell === 'none' && !roleChangesFiles(role) && !role.reviews ? { ...role, shell: 'readonly' as const } : role)));
  return { roles, tools: r.tools };
}
