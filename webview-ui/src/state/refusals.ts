import type { ChatCard } from './localCards';

/**
 * The refusals still current, keyed `action|target` ("revert_call|call_7", "revert_task|"): a
 * refused revert is shown by the button that asked for it until the user writes again or a revert
 * succeeds. Only the cards since the user's last message are read (newest refusal per key wins).
 */
export function currentRefusals(cards: readonly ChatCard[]): Map<string, string> {
  const out = new Map<string, string>();
  let revertedSince = false;
  for (let i = cards.length - 1; i >= 0; i--) {
    const c = cards[i] as unknown as Record<string, unknown>;
    if (c.kind === 'text' && c.author === 'user') break;
    if (c.kind === 'text' && c.note === 'revert') revertedSince = true;
    if (c.kind !== 'error' || revertedSince || typeof c.message !== 'string') continue;
    const r = c.refused as { action?: unknown; target?: unknown } | undefined;
    if (!r || typeof r.action !== 'string') continue;
    const key = refusalKey(r.action, typeof r.target === 'string' ? r.target : undefined);
    if (!out.has(key)) out.set(key, c.message);
  }
  return out;
}

export function refusalKey(action: string, target?: string): string {
  return `${action}|${target ?? ''}`;
}
