import * as z from 'zod';

/**
 * Facts: durable, short things learned about one workspace ("tests run with `npm run t`"), kept
 * across tasks. Each rests on evidence it cites — lines of workspace files with a hash of those
 * lines, or a command with a hash of the output that showed it — and is checked against the code
 * before it is sent: a fact whose lines changed, whose file is gone, or that is too old is stale and
 * not sent. Shared by the core (store, prompt), the CLI (`tandem facts`) and the webview (cards, view).
 */

/** Lines of one workspace file, 1-based and inclusive, and the hash of their text when cited. */
export const FactLines = z.object({
  /** The workspace folder's name, in a workspace of several folders: `path` is relative to it (else to the only folder). */
  folder: z.string().min(1).max(255).optional(),
  path: z.string().min(1).max(500),
  start: z.number().int().min(1),
  end: z.number().int().min(1),
  hash: z.string().max(80),
});
export type FactLines = z.infer<typeof FactLines>;

export const FactCitation = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('lines'), files: z.array(FactLines).min(1).max(5) }),
  /** A command whose output showed the fact (a step's check): its output is not re-run to check it, only its age counts. */
  z.object({ kind: z.literal('command'), command: z.string().min(1).max(500), output_hash: z.string().max(80) }),
]);
export type FactCitation = z.infer<typeof FactCitation>;

/** Who learned a fact: the Reviewer in a task's review (with its model), or the user. */
export const FactSource = z.object({
  by: z.enum(['reviewer', 'user']),
  task_id: z.string().max(200).optional(),
  role: z.string().max(40).optional(),
  model: z.string().max(200).optional(),
  /** The plan step whose review learned it. */
  step: z.number().int().min(1).optional(),
});
export type FactSource = z.infer<typeof FactSource>;

export const FACT_TEXT_MAX = 300;

export const Fact = z.object({
  id: z.string().min(1).max(40),
  text: z.string().min(1).max(FACT_TEXT_MAX),
  /** Absent only on a fact the user added without evidence: then only its age can make it stale. */
  citation: FactCitation.optional(),
  source: FactSource,
  /** The workspace it belongs to (its folder's name and real-path hash): a fact never reaches another. A global fact: the workspace it was added in. */
  workspace: z.string().max(300),
  /**
   * The user's own fact for every workspace (kept outside any workspace's folder). It cites no
   * file — lines belong to one workspace — only a command's output, or nothing.
   */
  global: z.literal(true).optional(),
  created: z.number(),
  /** When its citation was last found to hold (learned, added, re-checked): the age that expires it counts from here. */
  checked: z.number(),
});
export type Fact = z.infer<typeof Fact>;

/** The store's file: every fact of the workspaces whose history folder it sits in. */
export const FactFile = z.object({
  version: z.literal(1),
  facts: z.array(Fact).max(2000),
});
export type FactFile = z.infer<typeof FactFile>;

/** Why a fact is not sent: its cited lines changed, the file is gone or may not be read, or it is too old. */
export const FactStaleness = z.object({
  reason: z.enum(['changed', 'gone', 'refused', 'old']),
  detail: z.string().max(1000),
});
export type FactStaleness = z.infer<typeof FactStaleness>;

/** A fact as the user sees it (the Facts view, `tandem facts list`): with its checked state. */
export const FactView = z.object({
  fact: Fact,
  stale: FactStaleness.optional(),
  /** `src/app.py:12-20`, or the command: the citation in one line. */
  cited: z.string(),
});
export type FactView = z.infer<typeof FactView>;

