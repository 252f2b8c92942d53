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

const LEAD: Record<NonNullable<HookNote['outcome']>, string> = {
  blocked: 'Blocked by hook',
  allowed: 'Allowed by hook',
  asked: 'A hook asked for approval',
  not_reached: "A hook allowed this, but a hook's allow does not reach past this rule",
  feedback: 'Hook feedback',
};

/**
 * The lines to show for the call. `shownError`: the card's error where it is shown beside them (the
 * chat): a line it already says ("Blocked by hook: <reason>", as the model got it) is left out.
 */
export function hookNoteLines(note: HookNote, shownError?: string): { text: string; warning: boolean }[] {
  const lines: { text: string; warning: boolean }[] = [];
  if (note.outcome) lines.push({ text: note.reason ? `${LEAD[note.outcome]}: ${note.reason}` : LEAD[note.outcome], warning: note.outcome === 'blocked' || note.outcome === 'not_reached' });
  for (const w of note.warnings ?? []) lines.push({ text: `Hook failed: ${w}`, warning: true });
  return shownError ? lines.filter((l) => !shownError.includes(l.text)) : lines;
}
