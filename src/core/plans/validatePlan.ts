/**
 * Parses and checks a plan: the zod shape first, then the rules zod cannot express (at least one
 * step, steps numbered 1..n in order, only tools a step may use, a scope inside the workspace:
 * files relative and without `..`, commands and check that are command lines; see scopeEntryRules.ts;
 * `depends_on` naming only other steps of the plan, without a cycle; see graph/stepGraph.ts), all
 * after the size limits (planLimits.ts), so an oversized plan is refused before it is walked.
 * Every problem is one line that names the step ("step 3: tools_needed names unknown tool 'sed'"),
 * because those lines go back to the model verbatim for a repair, and to the user on the card.
 */
import * as path from 'node:path';
import type { z } from 'zod';
import { Plan, PlanStep } from '../../protocol';
import { dropNulls } from '../schemas/strictJsonSchema';
import { commandEntryProblem, fileEntryProblem } from './scopeEntryRules';
import type { WorkspacePaths } from '../workspace/workspacePaths';
import { graphProblems, type GraphStep } from './graph/stepGraph';
import { planLimitProblems } from './planLimits';

export type PlanValidation = { ok: true; plan: Plan; errors: [] } | { ok: false; plan: null; errors: string[] };

export interface PlanCheckOptions {
  /** The tool names a step may name in `tools_needed` (the tool registry's step tools). */
  stepTools: readonly string[];
  /** Decides whether a path named in `files` is inside the workspace (after resolving symlinks). */
  isInside?: (file: string) => Promise<boolean>;
}

const MAX_ERROR_LINES = 30;

export async function validatePlan(raw: unknown, opts: PlanCheckOptions): Promise<PlanValidation> {
  const data = dropNulls(unwrapEnvelope(raw));
  const over = planLimitProblems(data);
  if (over.length) return { ok: false, plan: null, errors: over.slice(0, MAX_ERROR_LINES) };
  const parsed = Plan.safeParse(data);
  // concat, never push(...list): a spread of a long list overflows the call stack.
  const schemaErrors = parsed.success ? [] : parsed.error.issues.map(issueLine);
  const unique = [...new Set(schemaErrors.concat(await semanticErrors(data, opts)))];
  if (unique.length > 0 || !parsed.success) {
    const lines = unique.length > MAX_ERROR_LINES
      ? [...unique.slice(0, MAX_ERROR_LINES), `… and ${unique.length - MAX_ERROR_LINES} more problems`]
      : unique;
    return { ok: false, plan: null, errors: lines.length ? lines : ['the plan does not match the schema'] };
  }
  return { ok: true, plan: parsed.data, errors: [] };
}

/**
 * Weaker models often wrap the plan — `{"plan": {...}}`, or the whole object as a JSON string.
 * Only the envelope is undone (a single key holding an object with `steps`, or a string that is
 * a JSON object); the plan itself is still checked field by field.
 */
export function unwrapEnvelope(value: unknown): unknown {
  if (typeof value === 'string') {
    try {
      const parsed = JSON.parse(value);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return unwrapEnvelope(parsed);
    } catch {
      /* not JSON: reported as not an object */
    }
    return value;
  }
  if (value && typeof value === 'object' && !Array.isArray(value) && !('steps' in value)) {
    const entries = Object.entries(value);
    if (entries.length === 1) {
      const inner = entries[0][1];
      if (inner && typeof inner === 'object' && !Array.isArray(inner) && 'steps' in inner) return inner;
      if (typeof inner === 'string' && inner.trim().startsWith('{')) return unwrapEnvelope(inner);
    }
  }
  return value;
}

/** One step (`index` 0-based) against the step schema: the step, or the problems in the lines `validatePlan` uses. */
export function checkStepShape(value: unknown, index: number): { step: PlanStep; problems: [] } | { step?: undefined; problems: string[] } {
  const parsed = PlanStep.safeParse(dropNulls(value));
  if (parsed.success) return { step: parsed.data, problems: [] };
  return { problems: parsed.error.issues.map((issue) => issueLine({ ...issue, path: ['steps', index, ...issue.path] })) };
}

function issueLine(issue: z.core.$ZodIssue): string {
  const p = issue.path;
  if (p[0] === 'steps' && typeof p[1] === 'number') {
    const rest = p.slice(2);
    return `step ${p[1] + 1}: ${rest.length ? `${fieldPath(rest)}: ` : ''}${issue.message}`;
  }
  return `${p.length ? `${fieldPath(p)}: ` : ''}${issue.message}`;
}

function fieldPath(p: readonly PropertyKey[]): string {
  return p.map((k, i) => (typeof k === 'number' ? `[${k}]` : `${i ? '.' : ''}${String(k)}`)).join('');
}

/** Tolerant of a wrong shape (zod reports that): checks whatever steps look like steps. */
async function semanticErrors(data: unknown, opts: PlanCheckOptions): Promise<string[]> {
  const errors: string[] = [];
  if (!data || typeof data !== 'object' || Array.isArray(data)) return ['the plan must be a JSON object'];
  const steps = (data as { steps?: unknown }).steps;
  if (!Array.isArray(steps)) return errors;
  const known = new Set(opts.stepTools);
  if (steps.length === 0) errors.push('steps: the plan has no steps; at least one is needed');
  for (let i = 0; i < steps.length; i++) {
    const s = steps[i] as Record<string, unknown> | null;
    if (!s || typeof s !== 'object') continue;
    errors.push(...stepRuleProblems(s, i, known));
    if (opts.isInside && Array.isArray(s.files)) {
      for (const f of s.files) {
        if (typeof f === 'string' && !fileEntryProblem(f) && !(await opts.isInside(f.trim()))) errors.push(`step ${i + 1}: file '${f}' is outside the workspace`);
      }
    }
  }
  // The graph is judged only on steps that look like steps (zod reports the rest).
  const graphSteps = steps.filter((s): s is GraphStep => !!s && typeof s === 'object' && typeof (s as GraphStep).step_number === 'number'
    && ((s as GraphStep).depends_on === undefined || (Array.isArray((s as GraphStep).depends_on) && (s as GraphStep).depends_on!.every((d) => typeof d === 'number'))));
  return errors.concat(graphProblems(graphSteps));
}

/**
 * The rules one step must meet on its own (without the file system or the other steps): numbered in
 * order, known tools, files and commands that are scope entries. `index` is its place (0-based).
 */
export function stepRuleProblems(s: Record<string, unknown>, index: number, known: ReadonlySet<string>): string[] {
  const errors: string[] = [];
  const label = `step ${index + 1}`;
  if (typeof s.step_number === 'number' && s.step_number !== index + 1) {
    errors.push(`${label}: step_number is ${s.step_number}, expected ${index + 1} (steps are numbered 1..n in order)`);
  }
  if (Array.isArray(s.tools_needed)) {
    for (const t of s.tools_needed) {
      if (typeof t === 'string' && !known.has(t)) errors.push(`${label}: tools_needed names unknown tool '${t}'`);
    }
  }
  if (Array.isArray(s.files)) {
    for (const f of s.files) {
      const lexical = typeof f === 'string' ? fileEntryProblem(f) : undefined;
      if (lexical) errors.push(`${label}: ${lexical}`);
    }
  }
  if (Array.isArray(s.commands)) {
    s.commands.forEach((c, k) => {
      const problem = typeof c === 'string' ? commandEntryProblem(c, `commands[${k}]`) : undefined;
      if (problem) errors.push(`${label}: ${problem}`);
    });
  }
  if (typeof s.check === 'string') {
    const problem = commandEntryProblem(s.check, 'check');
    if (problem) errors.push(`${label}: ${problem}`);
  }
  return errors;
}

/** `isInside` from the workspace's path resolver (symlinks resolved), the one the tools use too. */
export function insideWorkspace(paths: WorkspacePaths): (file: string) => Promise<boolean> {
  return async (file) => {
    try {
      return (await paths.resolve(file)).inside;
    } catch {
      return lexicallyInside(paths.fs.roots)(file);
    }
  };
}

/** A path check without the file system (no symlinks): for plan files checked before a workspace is open. */
export function lexicallyInside(roots: readonly string[]): (file: string) => Promise<boolean> {
  return async (file) => {
    if (roots.length === 0) return false;
    const abs = path.resolve(roots[0], file);
    return roots.some((r) => abs === r || abs.startsWith(r.endsWith(path.sep) ? r : r + path.sep));
  };
}
