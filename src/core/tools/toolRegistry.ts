/**
 * The tools in force, from providers: the built-in workspace tools, the loop's own tools, and any
 * provider added later (an MCP server, code intelligence). What a role is offered, the permission
 * check at dispatch and the names a plan step may use are all answered here, from whatever the
 * providers hold right now — a provider's set may change between two requests.
 */
import { missingPermissions, roleMay, type RoleInfo, type RoleRegistry } from '../../protocol';
import type { Tool } from './tool';
import type { PlanningPort } from './planningPort';

export interface ToolProvider {
  /** Names the provider in errors ("mcp:github"). */
  readonly id: string;
  /** The tools it offers now. */
  tools(): readonly Tool[];
  /**
   * Fires when `tools()` would answer differently (a server connected); returns the unsubscribe.
   * A provider whose set can change must have it: the registry reads `tools()` again only then.
   */
  onDidChange?(listener: () => void): () => void;
}

/** A provider whose tools never change. */
export function fixedProvider(id: string, tools: readonly Tool[]): ToolProvider {
  const list = [...tools];
  return { id, tools: () => list };
}

export class ToolRegistry {
  private readonly providers: ToolProvider[] = [];
  /** `all()` as of the last change (it is asked several times per request: offer, dispatch, plan checks). */
  private merged: Tool[] | undefined;

  constructor(providers: readonly ToolProvider[] = []) {
    for (const p of providers) this.add(p);
  }

  /** Adds a provider; its tools are offered from the next request on. Returns its removal. */
  add(provider: ToolProvider): () => void {
    this.providers.push(provider);
    const unsubscribe = provider.onDidChange?.(() => this.changed());
    this.changed();
    return () => {
      const i = this.providers.indexOf(provider);
      if (i < 0) return;
      this.providers.splice(i, 1);
      unsubscribe?.();
      this.changed();
    };
  }

  /** Every tool, once per name: an earlier provider's tool wins, so a later one cannot shadow a built-in. */
  all(): Tool[] {
    if (this.merged) return this.merged;
    const seen = new Set<string>();
    const out: Tool[] = [];
    for (const p of this.providers) {
      for (const t of p.tools()) {
        if (seen.has(t.name)) continue;
        seen.add(t.name);
        out.push(t);
      }
    }
    this.merged = out;
    return out;
  }

  find(name: string): Tool | undefined {
    return this.all().find((t) => t.name === name);
  }

  /** Why `role` may not call `tool` now, or undefined when it may (static part: before arguments are read). */
  refusalFor(tool: Tool, role: RoleInfo, planning?: PlanningPort): string | undefined {
    const missing = missingPermissions(role, tool.permissions);
    if (missing.includes('execute') && role.shell === 'none') {
      return `${tool.name} is not permitted for the ${role.label} role (no shell). Nothing was run.`;
    }
    if (missing.length) {
      return `${tool.name} is not permitted for the ${role.label} role (it needs ${missing.join(', ')} permission; the ${role.label} may only ${role.permissions.join(', ')}). Nothing was changed.`;
    }
    if (tool.available && !tool.available({ role, planning })) {
      return `${tool.name} is not available to the ${role.label} right now.`;
    }
    return undefined;
  }

  /** The tools `role` is offered in this request: only what it may call. */
  offeredTo(role: RoleInfo, planning?: PlanningPort): Tool[] {
    return this.all().filter((t) => this.refusalFor(t, role, planning) === undefined);
  }

  /**
   * The names a plan step may put in `tools_needed`: the working tools of the role that executes
   * plans (the plan schema's enum, plan validation and the Planner's prompt all read this).
   */
  stepTools(roles: RoleRegistry): string[] {
    const executor = roles.executor;
    if (!executor) return [];
    return this.all()
      .filter((t) => !t.conversational && roleMay(executor, t.permissions))
      .map((t) => t.name);
  }

  private changed(): void {
    this.merged = undefined;
  }
}
