/**
 * One eval task as it is kept on disk: a folder with `task.json` (this schema), the repository the
 * agent starts from (`repo/`, a snapshot, or a git ref), the files the verifier adds before it runs
 * (`verify/`: the commit's own tests) and the reference change (`reference/`: the files as the
 * commit left them). Only the prompt and the repository reach the agent; everything else stays in
 * the task folder, outside the copy it works in (see cli/eval/taskCopy.ts and the sandbox's hidden
 * folders).
 */
import * as z from 'zod';

export const EVAL_TASK_FORMAT = 'tandem-eval-task/1';

const Command = z.string().trim().min(1).max(2_000);

export const EvalTaskSpec = z
  .object({
    format: z.literal(EVAL_TASK_FORMAT),
    /** The request as a user would type it. */
    prompt: z.string().trim().min(1).max(20_000),
    /** `repo` (default): the snapshot folder in the task folder; `{ git, ref }`: that commit of a repository (path relative to the task folder, or absolute). */
    repo: z.union([z.string().trim().min(1), z.object({ git: z.string().trim().min(1), ref: z.string().trim().min(1) }).strict()]).default('repo'),
    /** Run in the fresh copy, in the sandbox, before the agent starts; any failure stops the task (reason setup_failed). */
    setup: z.array(Command).max(20).default([]),
    verify: z
      .object({
        /** Exit code 0 is a pass. Runs in the copy, in the sandbox, after `files` were laid over it. */
        command: Command,
        /** A folder in the task folder whose files are laid over the copy before the command (the commit's tests). */
        files: z.string().trim().min(1).optional(),
        timeoutSeconds: z.number().int().min(1).max(3_600).default(300),
        /**
         * The verifier runs TypeScript: the runner gives it Tandem's own esbuild (its path in
         * TANDEM_EVAL_ESBUILD; see host/node/eval/typeScriptRunner.ts), and where it has none the
         * task stops before the agent starts (reason setup_failed) rather than fail every model.
         */
        typescript: z.boolean().optional(),
      })
      .strict(),
    /** The reference change: a folder of whole files as they should end up (used by reference models in tests and by `eval show`). */
    reference: z.string().trim().min(1).optional(),
    limits: z
      .object({
        /** Stop the task at this cost (only where prices are known). */
        usd: z.number().positive().max(1_000).optional(),
        /** Stop the task after this long. */
        minutes: z.number().positive().max(600).default(15),
        /** Tool calls per turn before the turn stops (the agent's own limit). */
        toolCalls: z.number().int().min(1).max(1_000).default(60),
      })
      .strict()
      .default({ minutes: 15, toolCalls: 60 }),
    /** Where the task comes from (shown in the report; required for the built-in suite). */
    source: z
      .object({ project: z.string(), url: z.string().optional(), commit: z.string().optional(), license: z.string().optional() })
      .strict()
      .optional(),
    language: z.string().max(40).optional(),
    tags: z.array(z.string().max(40)).max(20).default([]),
  })
  .strict();
export type EvalTaskSpec = z.infer<typeof EvalTaskSpec>;

/** A task ready to run: its id (the folder's path under the suite), its folder and its spec. */
export interface EvalTask {
  id: string;
  dir: string;
  spec: EvalTaskSpec;
}

/** The spec from task.json's text, or a message saying what is wrong (first three problems). */
export function parseEvalTask(text: string): { spec: EvalTaskSpec } | { error: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return { error: `not JSON (${(e as Error).message})` };
  }
  const r = EvalTaskSpec.safeParse(raw);
  if (r.success) return { spec: r.data };
  return { error: r.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(top)'}: ${i.message}`).join('; ') };
}
