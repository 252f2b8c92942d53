import * as z from 'zod';

/**
 * An amendment: while the Actor executes a plan step, an action outside that step's scope (a file
 * its `files` do not cover, a command its `commands`/`check` do not start) is not an ordinary
 * approval. The person who approved the plan decides: allow it once, add it to the plan (a new
 * version whose step scope is widened), or reject it. Blanket approval (flags, auto-approve
 * settings, plan-scope approval) never answers an amendment.
 */
export const AmendmentOutcome = z.enum([
  /** Waiting for the person. */
  'asked',
  'allowed_once',
  /** Allowed, and the step's scope widened in a new plan version (`version`). */
  'added',
  'rejected',
  /** Nobody may allow it here (headless): the run stops (CLI exit 3). */
  'refused',
]);
export type AmendmentOutcome = z.infer<typeof AmendmentOutcome>;

export const Amendment = z.object({
  plan_id: z.string(),
  /** The version being executed when the step asked. */
  plan_version: z.number().int(),
  step_number: z.number().int(),
  /** "Step 3 wants to edit src/b.ts, which the plan did not name". */
  text: z.string(),
  /** What "Add to the plan" adds to the step's scope. */
  add: z.object({ files: z.array(z.string()).optional(), commands: z.array(z.string()).optional() }),
  outcome: AmendmentOutcome,
  /** After "Add to the plan": the new version and what changed in it ("step 3 files: + src/b.ts"). */
  added_version: z.number().int().optional(),
  change: z.string().optional(),
});
export type Amendment = z.infer<typeof Amendment>;
