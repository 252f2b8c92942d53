/**
 * Whether an action of the Actor lies inside the scope of the plan step it is executing:
 * - a change (edit, new file, deletion) is in scope when one of the step's `files` covers its
 *   workspace-relative path: a glob (`src/**\/*.ts`), an exact path, or a folder (`docs/` or `docs`);
 * - a command is in scope when it is exactly one of the step's `commands` or its `check`, or when
 *   every simple command of it (parsed with shell-quote, commandSafety.ts; no redirection,
 *   substitution or subshell around) matches a simple command declared there. A declared one of
 *   plain words (`npm test`, `wc`) is a prefix: more arguments may follow. One with options, paths
 *   or patterns (`sed -i s/a/A/ a.txt`) is a whole command line: `… a.txt b.txt` is another
 *   command. A program that runs commands or touches files named in its arguments (`find … -exec`,
 *   `xargs`, `sh -c`, `env`, `timeout`…) matches only word for word.
 *   What a command changed is counted besides, from the workspace itself (workspaceSnapshot.ts).
 * Anything else is an amendment: the step "wants" something the plan did not name, and the person
 * who approved the plan decides (see amendmentGate.ts). Why here and not in the prompt: a model
 * drifts from its plan; only a check at dispatch makes the approved plan binding.
 */
import * as path from 'node:path';
import type { ApprovalInfo, PlanStep } from '../../protocol';
import { parseCommand } from '../policy/commandSafety';
import { globMatcher } from '../tools/glob';

/** What an out-of-scope action would add to the step's scope if the user adds it to the plan. */
export interface ScopeAddition {
  files?: string[];
  commands?: string[];
}

export type ScopeJudgement =
  | { inScope: true }
  | { inScope: false; text: string; add: ScopeAddition }
  /** Not something a step's scope speaks about (a path outside the workspace is the approval policy's alone). */
  | { inScope: undefined };

/** Workspace-relative form (forward slashes) of an absolute path; `undefined` outside every root. */
export function workspaceRelative(abs: string, roots: readonly string[]): string | undefined {
  for (const root of roots) {
    const rel = path.relative(root, abs);
    if (rel && !rel.startsWith('..') && !path.isAbsolute(rel)) return rel.split(path.sep).join('/');
  }
  return undefined;
}

/** True when one of `files` (globs, paths, folders) covers the workspace-relative path `rel`. */
export function fileInScope(files: readonly string[], rel: string): boolean {
  const clean = (f: string) => f.trim().replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/+$/, '');
  return files.some((f) => {
    const entry = clean(f);
    if (!entry) return false;
    return entry === rel || rel.startsWith(`${entry}/`) || globMatcher(entry)(rel);
  });
}

/** True when the command is one the step declared (its commands or its check), part by part. */
export function commandInScope(step: Pick<PlanStep, 'commands' | 'check'>, command: string): boolean {
  const declared = [...(step.commands ?? []), ...(step.check?.trim() ? [step.check] : [])].map((c) => c.trim()).filter(Boolean);
  if (declared.length === 0) return false;
  const norm = (c: string) => c.trim().replace(/\s+/g, ' ');
  if (declared.some((d) => norm(d) === norm(command))) return true;
  const known = declared.flatMap((d) => parseCommand(d).segments);
  const { segments, risks } = parseCommand(command);
  return segments.length > 0 && risks.length === 0 && segments.every((s) => known.some((k) => segmentMatches(k, s)));
}

/** Programs whose arguments are commands or a list of files to act on: never matched by a prefix. */
const RUNS_ITS_ARGUMENTS = new Set([
  'find', 'xargs', 'parallel', 'sh', 'bash', 'zsh', 'dash', 'ksh', 'fish', 'env', 'sudo', 'doas', 'nice', 'ionice', 'nohup', 'timeout',
  'time', 'command', 'builtin', 'exec', 'eval', 'setsid', 'stdbuf', 'watch', 'busybox', 'unbuffer', 'script', 'flock', 'chroot',
]);
const PLAIN_WORD = /^[A-Za-z][\w:-]*$/;

/** A declared simple command covers a run one: word for word, or as a prefix when it is plain words (`npm test`). */
function segmentMatches(declared: readonly string[], run: readonly string[]): boolean {
  if (declared.length > run.length || !declared.every((w, i) => run[i] === w)) return false;
  if (declared.length === run.length) return true;
  return !RUNS_ITS_ARGUMENTS.has(path.basename(run[0] ?? '')) && declared.every((w) => PLAIN_WORD.test(w));
}

/** The paths a change request names, workspace-relative: the file as given and its real path. */
export function changedPaths(info: ApprovalInfo, roots: readonly string[]): string[] {
  const out: string[] = [];
  if (info.real_path) {
    const rel = workspaceRelative(info.real_path, roots);
    if (rel) out.push(rel);
  } else if (info.path) {
    const rel = path.isAbsolute(info.path) ? workspaceRelative(info.path, roots) : info.path.split(path.sep).join('/').replace(/^\.\//, '');
    if (rel) out.push(rel);
  }
  return out;
}

const VERB = { edit: 'edit', create: 'create', delete: 'delete' } as const;

/** Judges one approval request against the step being executed. */
export function judgeScope(info: ApprovalInfo, step: PlanStep, roots: readonly string[]): ScopeJudgement {
  const n = step.step_number;
  switch (info.kind) {
    case 'edit':
    case 'create':
    case 'delete': {
      const rels = changedPaths(info, roots);
      if (rels.length === 0) return { inScope: undefined };
      const rel = rels[0]!;
      if (fileInScope(step.files, rel)) return { inScope: true };
      return { inScope: false, text: `Step ${n} wants to ${VERB[info.kind]} ${rel}, which the plan did not name`, add: { files: [rel] } };
    }
    case 'command': {
      const command = info.command?.trim() ?? '';
      if (!command) return { inScope: undefined };
      if (commandInScope(step, command)) return { inScope: true };
      const shown = command.length > 200 ? `${command.slice(0, 200)}…` : command;
      return { inScope: false, text: `Step ${n} wants to run \`${shown}\`, which the plan did not name`, add: { commands: [command] } };
    }
    default:
      return { inScope: undefined };
  }
}
