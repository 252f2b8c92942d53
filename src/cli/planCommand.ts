/**
 * The plan hand-off on the command line:
 *   tandem plan [run flags] "<prompt>" --out FILE.json   the Planner's validated plan, written to FILE
 *   tandem run --role actor --plan FILE.json [flags]     the Actor executes that plan, step by step
 * `extractPlanFlags` rewrites these into plain `run` arguments for the shared parser and remembers
 * the plan part; `runPlanCommand`/`runPlanFile` do the work once the agent exists.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Agent } from '../core/agent/agent';
import type { TurnOutcome } from '../core/agent/agentApi';
import { writePlanFile } from './planFile';
import { PRODUCT_ROLE_INFO, type RoleInfo, type RoleRegistry } from '../protocol';

export type PlanMode =
  | { mode: 'none'; argv: string[] }
  | { mode: 'plan'; argv: string[]; out: string }
  | { mode: 'execute'; argv: string[]; file: string };

/** Takes `--out`/`--plan` (and `plan` as a command) out of argv; the rest goes to the `run` parser. */
export function extractPlanFlags(argv: readonly string[], roles: RoleRegistry<RoleInfo> = PRODUCT_ROLE_INFO): PlanMode | { error: string } {
  const [command, ...rest] = argv;
  const take = (flag: string): { value?: string; rest: string[]; error?: string } => {
    const out: string[] = [];
    let value: string | undefined;
    for (let i = 0; i < rest.length; i++) {
      const a = rest[i]!;
      if (a === '--') { out.push(...rest.slice(i)); break; }
      if (a === flag || a.startsWith(`${flag}=`)) {
        const v = a === flag ? rest[++i] : a.slice(flag.length + 1);
        if (!v || v.startsWith('--')) return { rest: out, error: `${flag} needs a file name` };
        if (value !== undefined) return { rest: out, error: `${flag} given twice` };
        value = v;
        continue;
      }
      out.push(a);
    }
    return { value, rest: out };
  };
  if (command === 'plan') {
    const t = take('--out');
    if (t.error) return { error: t.error };
    if (!t.value) return { error: 'tandem plan needs --out FILE.json (where the validated plan is written)' };
    const planner = roles.planner;
    if (!planner) return { error: 'tandem plan needs a role that plans; none is registered' };
    const other = rolesOf(t.rest).find((r) => r !== planner.id);
    if (other !== undefined) return { error: `tandem plan runs the ${planner.label}; --role ${other} is not allowed` };
    return { mode: 'plan', argv: ['run', ...withRole(t.rest, planner.id)], out: t.value };
  }
  if (command === 'run' && rest.some((a) => a === '--plan' || a.startsWith('--plan='))) {
    const t = take('--plan');
    if (t.error) return { error: t.error };
    const executor = roles.executor;
    if (!executor) return { error: '--plan needs a role that executes plans; none is registered' };
    if (rolesOf(t.rest).some((r) => r !== executor.id)) return { error: `--plan executes a plan: it needs --role ${executor.id}` };
    // The shared parser wants a prompt; the plan is the brief, so a placeholder stands in for it.
    return { mode: 'execute', argv: ['run', ...withRole(t.rest, executor.id), '--', `(execute the plan in ${t.value})`], file: t.value! };
  }
  return { mode: 'none', argv: [...argv] };
}

/**
 * Every role the arguments name (up to `--`). All of them, not the first: the run parser lets a later
 * `--role` win, so `tandem plan --role planner --role actor` would otherwise run the Actor.
 */
function rolesOf(args: readonly string[]): string[] {
  const roles: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--') break;
    if (args[i] === '--role') roles.push(args[i + 1] ?? '');
    else if (args[i]!.startsWith('--role=')) roles.push(args[i]!.slice(7));
  }
  return roles;
}

function withRole(args: string[], role: string): string[] {
  return rolesOf(args).length ? args : ['--role', role, ...args];
}

export interface PlanIo {
  cwd: string;
  stderr: (s: string) => void;
}

/**
 * `tandem plan`: one Planner turn that must end in a plan. Exit code override: 1 when no plan
 * validated (the errors are printed; nothing is written), otherwise the turn's own outcome.
 */
export async function runPlanCommand(agent: Agent, prompt: string, out: string, io: PlanIo): Promise<{ outcome: TurnOutcome; exitCode?: number }> {
  const before = agent.planning.book.latest();
  const outcome = await agent.send(prompt, { requirePlan: true });
  const record = agent.planning.book.latest();
  if (outcome !== 'done') return { outcome };
  if (!record || record === before) {
    io.stderr('tandem: the Planner ended without a plan.\n');
    return { outcome, exitCode: 1 };
  }
  if (!record.plan) {
    io.stderr(`tandem: this plan could not be validated (after ${record.provenance.repairs} repair${record.provenance.repairs === 1 ? '' : 's'}):\n${record.errors.map((e) => `  - ${e}`).join('\n')}\nNothing was written.\n`);
    return { outcome, exitCode: 1 };
  }
  const file = path.resolve(io.cwd, out);
  writePlanFile(file, record);
  io.stderr(`tandem: plan v${record.version} (${record.plan.steps.length} steps) written to ${file}\n`);
  return { outcome };
}

/**
 * `tandem run --role actor --plan FILE.json`: the file's plan is validated like a model's (a plan
 * that fails is never executed: exit 1 with the errors), then executed step by step.
 */
export async function runPlanFile(agent: Agent, file: string, io: PlanIo): Promise<{ outcome: TurnOutcome; exitCode?: number }> {
  const abs = path.resolve(io.cwd, file);
  let raw: string;
  try {
    raw = fs.readFileSync(abs, 'utf8');
  } catch (e) {
    io.stderr(`tandem: cannot read the plan file ${abs}: ${(e as Error).message}\n`);
    return { outcome: 'error', exitCode: 2 };
  }
  const record = await agent.planning.importPlan(raw, abs);
  if (!record.plan) {
    io.stderr(`tandem: the plan in ${abs} is not valid, so it was not executed:\n${record.errors.map((e) => `  - ${e}`).join('\n')}\n`);
    return { outcome: 'error', exitCode: 1 };
  }
  return { outcome: await agent.executePlan(record.cardId) };
}
