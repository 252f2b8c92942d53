/**
 * The roles' table and the questions asked of it, apart from the zod schemas in roles.ts (which
 * re-exports all of this): the webview imports this file, and it must not pull a zod runtime in.
 */
/** What a role may do to the workspace; `Permission` in roles.ts is its schema. */
export const PERMISSIONS = ['read', 'write', 'create', 'delete', 'execute'] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** A role id's shape on the wire (`RoleId` in roles.ts) and in a registry. */
export const ROLE_ID_PATTERN = /^[a-z][a-z0-9_-]{0,31}$/;

/**
 * What every layer may know about a role (the webview, the status bar, the CLI, history): its
 * capabilities and how it looks. Code asks a role what it may do (`mayPlan`, `executesPlans`,
 * `shell`, `permissions`), never which role it is. The system prompt is attached in the core.
 */
export interface RoleInfo {
  /** Lower-case id: on the wire, in history, in `--role`, in the model setting `tandem.model.<id>`. */
  readonly id: string;
  readonly label: string;
  /** One character shown before the label in the chat's role control. */
  readonly glyph: string;
  /** `warning` roles (they can change things) are coloured as such in the status bar and the role control. */
  readonly tone: 'calm' | 'warning';
  /** A codicon for the status bar. */
  readonly icon: string;
  readonly permissions: readonly Permission[];
  /**
   * The shell the role gets: none; `readonly` — commands run in the sandbox with the whole workspace
   * read-only (writes go to a throwaway overlay) and no network, so the role stays read-only by
   * construction; `full` — commands may change the workspace (still sandboxed where possible).
   */
  readonly shell: 'none' | 'readonly' | 'full';
  /** Answers with plans: offered `propose_plan`; `tandem plan`, Revise and "Plan from selection" use it. */
  readonly mayPlan: boolean;
  /** Carries out approved plans: Execute plan switches to it; offered `fail_step`; runs the step sub-turns. */
  readonly executesPlans: boolean;
  /**
   * Judges plans and executed steps with a structured verdict (ok / revise / replan): the plan card's
   * Review, the review-before-execute setting and step reviews ask it. Absent: false.
   */
  readonly reviews?: boolean;
  /** Its model's setting under `tandem.` (unset: the first role's model). */
  readonly modelSetting: string;
}

/**
 * The product's roles, in order: the first is where a task starts. A new role is one more row here
 * (and its prompt in src/core/roles).
 */
export const ROLE_TABLE = [
  {
    id: 'planner', label: 'Planner', glyph: '◇', tone: 'calm', icon: 'telescope',
    permissions: ['read'], shell: 'none', mayPlan: true, executesPlans: false, modelSetting: 'model.planner',
  },
  {
    id: 'actor', label: 'Actor', glyph: '◆', tone: 'warning', icon: 'tools',
    permissions: ['read', 'write', 'create', 'delete', 'execute'], shell: 'full', mayPlan: false, executesPlans: true, modelSetting: 'model.actor',
  },
  {
    id: 'reviewer', label: 'Reviewer', glyph: '◎', tone: 'calm', icon: 'eye',
    permissions: ['read'], shell: 'none', mayPlan: false, executesPlans: false, reviews: true, modelSetting: 'model.reviewer',
  },
] as const satisfies readonly RoleInfo[];

/** The permissions that change the workspace's files. */
const FILE_CHANGES: readonly Permission[] = ['write', 'create', 'delete'];

/**
 * The one permission check — dispatch, the tools a role is offered, the plan's step tools, the
 * read-only shell setting and what the UI says of a role all ask it: which of `needs` the role lacks.
 * `execute` also needs a shell, and a read-only shell grants it without the permission: its
 * commands run in a sandbox where the whole workspace is read-only, so they change nothing.
 */
export function missingPermissions(role: RoleInfo, needs: readonly Permission[]): Permission[] {
  return needs.filter((p) => (p === 'execute'
    ? role.shell === 'none' || (!role.permissions.includes(p) && role.shell !== 'readonly')
    : !role.permissions.includes(p)));
}

/** Whether the role may do everything `needs` lists (see `missingPermissions`). */
export function roleMay(role: RoleInfo, needs: readonly Permission[]): boolean {
  return missingPermissions(role, needs).length === 0;
}

/** Whether the role can change the workspace's files: tooltips say "full access" or "read-only". */
export function roleChangesFiles(role: RoleInfo): boolean {
  return FILE_CHANGES.some((p) => roleMay(role, [p]));
}

/** How a role's access reads in tooltips and `tandem roles`, from its permissions. */
export function roleAccess(role: RoleInfo): string {
  return roleChangesFiles(role) ? 'full access' : 'read-only';
}

/** The product's role ids, derived from the table. */
export type ProductRoleId = (typeof ROLE_TABLE)[number]['id'];

