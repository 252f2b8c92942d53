import type { HookNote } from './hookNote';

/*
 * The words for a hook note, apart from its schema (index.ts exports both): the webview
 * imports this file, and it must not pull a zod runtime in.
 */

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
