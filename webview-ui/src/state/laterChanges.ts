import type { ChatCard } from './localCards';

/** What Edit & resend on a message would drop, and what of it reaches beyond the chat. */
export interface LaterChanges {
  /** Cards from the message on (itself included). */
  dropped: number;
  /** Files changed after the message that a revert can put back. */
  files: string[];
  /** Files changed after it that cannot be reverted (too big, binary…). */
  unrevertible: string[];
  /** Commands that ran after it: their effects stay, whatever is chosen. */
  commands: string[];
}

/**
 * Read from the cards as the chat shows them (snapshot cards may not be validated yet: read
 * defensively). A file counts once, under "revertible" if any of its changes is.
 */
export function laterChanges(cards: readonly ChatCard[], cardId: string): LaterChanges {
  const at = cards.findIndex((c) => c.id === cardId);
  const out: LaterChanges = { dropped: 0, files: [], unrevertible: [], commands: [] };
  if (at < 0) return out;
  out.dropped = cards.length - at;
  const files = new Set<string>();
  const stuck = new Set<string>();
  const commands = new Set<string>();
  for (const card of cards.slice(at + 1)) {
    const c = card as unknown as Record<string, unknown>;
    if (c.kind !== 'tool_call' || c.reverted === true) continue;
    const a = c.approval as { kind?: string; path?: unknown; command?: unknown } | undefined;
    if (a?.kind === 'command' && typeof a.command === 'string' && (c.status === 'done' || c.status === 'error' || c.status === 'running')) commands.add(a.command);
    if (typeof a?.path !== 'string') continue;
    if (c.revertible === true) files.add(a.path);
    else if (typeof c.revert_note === 'string') stuck.add(a.path);
  }
  out.files = [...files];
  out.unrevertible = [...stuck].filter((f) => !files.has(f));
  out.commands = [...commands];
  return out;
}
