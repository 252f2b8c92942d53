import * as z from 'zod';

/**
 * What the user's own hooks did to one tool call, on its card: blocked it (exit 2 or a deny),
 * allowed or asked for approval, an allow that did not reach past a hard rule, feedback after it
 * ran; and hooks that failed (other exits, timeouts), which never block. The chat and the CLI show
 * the lines `hookNoteLines` makes, the same words in both, without knowing which tool it was.
 */
export const HookNote = z.object({
  outcome: z.enum(['blocked', 'allowed', 'asked', 'not_reached', 'feedback']).optional(),
  reason: z.string().max(4100).optional(),
  warnings: z.array(z.string().max(4100)).max(20).optional(),
});
export type HookNote = z.infer<typeof HookNote>;
