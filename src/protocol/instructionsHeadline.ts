import type { InstructionsCard } from './cards';

/**
 * The one line an instructions card shows, the same in the chat and the CLI:
 * "Using instructions from AGENTS.md (+2)", "Using instructions from src/AGENTS.md for src/".
 */
export function instructionsHeadline(card: Pick<InstructionsCard, 'files' | 'nested' | 'cut'>): string {
  const [first, ...rest] = card.files;
  if (!first) return 'No project instructions fit the budget';
  const more = rest.length ? ` (+${rest.length})` : '';
  const cut = card.cut ? ' — some cut to fit' : '';
  if (card.nested) {
    const folder = first.path.includes('/') ? first.path.slice(0, first.path.lastIndexOf('/') + 1) : '';
    return `Using instructions from ${first.path}${folder ? ` for ${folder}` : ''}${cut}`;
  }
  return `Using instructions from ${first.path}${more}${cut}`;
}
