import { ROLE_ID_PATTERN, ROLE_TABLE, type RoleInfo } from './roleTable';

/**
 * The roles in force, in order (the first is where a task starts). The product passes `ROLE_TABLE`
 * (with prompts, in the core); a test may pass a registry with a role of its own. Every question
 * about roles — which plans, which executes, what comes after which in the role control — is asked
 * here, so nothing else names a role.
 */
export class RoleRegistry<R extends RoleInfo = RoleInfo> {
  readonly list: readonly R[];
  private readonly byId: ReadonlyMap<string, R>;

  constructor(roles: readonly R[]) {
    if (roles.length === 0) throw new Error('a role registry needs at least one role');
    const byId = new Map<string, R>();
    for (const r of roles) {
      if (!ROLE_ID_PATTERN.test(r.id)) throw new Error(`role id "${r.id}" must be lower-case letters, digits, - or _`);
      if (byId.has(r.id)) throw new Error(`role "${r.id}" is registered twice`);
      byId.set(r.id, r);
    }
    this.list = [...roles];
    this.byId = byId;
  }

  get ids(): string[] {
    return this.list.map((r) => r.id);
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  find(id: string): R | undefined {
    return this.byId.get(id);
  }

  /** The role with this id; an unknown id is a programming error here (ids from outside are checked with `has`). */
  get(id: string): R {
    const r = this.byId.get(id);
    if (!r) throw new Error(`unknown role "${id}" (known: ${this.ids.join(', ')})`);
    return r;
  }

  /** Where a new task starts. */
  get initial(): R {
    return this.list[0]!;
  }

  /** The role that answers with plans (`tandem plan`, Revise, Plan from selection). */
  get planner(): R | undefined {
    return this.list.find((r) => r.mayPlan);
  }

  /** The role Execute plan switches to. */
  get executor(): R | undefined {
    return this.list.find((r) => r.executesPlans);
  }

  /** The role that judges plans and executed steps. */
  get reviewer(): R | undefined {
    return this.list.find((r) => r.reviews);
  }

  /** The role after this one, in table order, wrapping around (the chat's role control cycles). */
  next(id: string): R {
    const i = this.list.findIndex((r) => r.id === id);
    return this.list[(i + 1) % this.list.length]!;
  }
}

/** The product's roles as every layer sees them (no prompts: those live in the core). */
export const PRODUCT_ROLE_INFO = new RoleRegistry<RoleInfo>(ROLE_TABLE);
