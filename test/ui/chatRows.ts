/**
 * The chat's rows as a user sees them, top to bottom: the virtualised list is scrolled through and
 * each drawn row is read once — a card, a folded group's line or a step's lane (with what the lane
 * says of its check); a folded card (its row draws nothing) is not a row. After each scroll the
 * list is given two animation frames to draw the rows it moved to (it renders on the scroll event).
 */
import type { FrameLocator, Locator } from 'playwright-core';

export interface ChatRow {
  id: string;
  /** What the row is and its first words: "lane 2: …", "group: …", "tool_call: ⚙ Edited …". */
  what: string;
  /** Everything the row shows (closed disclosures' insides are not shown, so not here). */
  text: string;
}

export async function chatRows(chat: FrameLocator): Promise<ChatRow[]> {
  const list = chat.locator('.list[role="log"]');
  const seen = new Map<string, ChatRow>();
  const drawn = (): Promise<void> => list.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
  await list.evaluate((el) => { (el as unknown as { scrollTop: number }).scrollTop = 0; });
  for (let i = 0; i < 400; i++) {
    await drawn();
    const rows = await chat.locator('.row').evaluateAll((els) => els.map((r) => {
      const first = r.firstElementChild as HTMLElement | null;
      const shown = !!first && !first.classList.contains('card-folded') && (r as HTMLElement).offsetHeight > 0;
      const text = (first?.innerText ?? '').replace(/\s+/g, ' ').trim();
      const lane = first?.getAttribute('data-lane-step');
      const what = lane ? `lane ${lane}: ${text.slice(0, 100)}`
        : first?.classList.contains('tool-group') ? `group: ${first.innerText.split('\n')[0]}`
        : `${first?.getAttribute('data-card-kind') ?? '?'}${first?.classList.contains('author-user') ? ' (user)' : ''}: ${text.slice(0, 80)}`;
      return { id: r.getAttribute('data-row-id') ?? '', shown, what, text, top: new DOMMatrix(getComputedStyle(r).transform).m42 };
    }));
    for (const r of rows.sort((a, b) => a.top - b.top)) if (r.shown && !seen.has(r.id)) seen.set(r.id, { id: r.id, what: r.what, text: r.text });
    if (await halfScreenDown(list, 2)) break;
  }
  return [...seen.values()];
}

/** How many times `needle` is said in the rows' text (each row read once). */
export function timesSaid(rows: readonly ChatRow[], needle: string | RegExp): number {
  const re = typeof needle === 'string' ? new RegExp(needle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'g') : new RegExp(needle.source, needle.flags.includes('g') ? needle.flags : `${needle.flags}g`);
  return rows.reduce((n, r) => n + (r.text.match(re)?.length ?? 0), 0);
}

/** Scrolls the chat's list down half a screen; true (and no scroll) when it is already at its end (within `slack` px). */
export function halfScreenDown(list: Locator, slack = 1): Promise<boolean> {
  return list.evaluate((el, sl) => {
    const e = el as unknown as { scrollTop: number; clientHeight: number; scrollHeight: number };
    if (e.scrollTop + e.clientHeight >= e.scrollHeight - sl) return true;
    e.scrollTop += e.clientHeight / 2;
    return false;
  }, slack);
}

/** One pass over the chat's list from the top to its end, half a screen at a time, until `found` holds. */
export async function scanListFor(list: Locator, found: () => Promise<boolean>, pauseMs: number): Promise<void> {
  await list.evaluate((el) => { (el as unknown as { scrollTop: number }).scrollTop = 0; });
  for (let i = 0; i < 400 && !(await found()); i++) {
    if (await halfScreenDown(list)) break;
    await new Promise((r) => setTimeout(r, pauseMs));
  }
}
