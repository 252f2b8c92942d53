/**
 * The `@` picker: typing `@` in the composer opens a list of what can be mentioned — the kinds
 * (problems, selection, git changes, terminal) and workspace files and folders from the host's
 * search, narrowed as the user types. Keyboard first: ↑/↓ move, Enter or Tab pick, Escape closes;
 * a folder picked stays open to go deeper. Picking replaces the typed `@query` with the mention.
 * While the search for what was typed is under way the list says so, and Enter waits for it and
 * picks the top match: "Explain @car" never goes out as plain text because the results were late.
 * With no match, Enter does nothing until Escape closes the list (then the text is the user's).
 * Either way the list says that Enter was taken, so the key never seems lost.
 */
import { useEffect, useState } from 'preact/hooks';
import { postToHost } from '../bridge/vscodeApi';
import { forgetMentionAnswers } from '../state/viewStore';
import { useView, useViewStore } from '../ui/storeContext';

const KINDS = [
  { value: 'problems', hint: 'current problems (errors, warnings)' },
  { value: 'selection', hint: "the editor's selection" },
  { value: 'git', hint: 'git changes (working tree and staged)' },
  { value: 'terminal', hint: "the active terminal's last output" },
];

interface Item { value: string; hint: string }

/** The `@query` being typed at the cursor, or undefined. */
function tokenAt(text: string, cursor: number): { start: number; query: string } | undefined {
  const m = /(^|[\s([{,;])@([^\s"'`,;()[\]{}<>]*)$/.exec(text.slice(0, cursor));
  return m ? { start: cursor - m[2]!.length - 1, query: m[2]! } : undefined;
}

/** The list's last line while nothing can be picked yet: searching, or no match; and whether Enter was taken. */
function status(searching: boolean, pickWhenReady: boolean, enterTaken: boolean): string {
  if (searching) return pickWhenReady ? 'Searching… Enter picks the first match when it comes' : 'Searching…';
  return enterTaken ? 'No match: Enter was taken (Esc, then Enter sends it as plain text)' : 'No match (Esc: plain text)';
}

export function useMentionPicker(ta: { current: HTMLTextAreaElement | null }, draft: string, onDraft: (t: string) => void) {
  const [cursor, setCursor] = useState(0);
  const [active, setActive] = useState(0);
  const [closedAt, setClosedAt] = useState<number | undefined>(undefined);
  /** Enter (or Tab) came before the results: pick the top match when they arrive. */
  const [pickWhenReady, setPickWhenReady] = useState(false);
  /** Enter (or Tab) came with no match: the list says the key was taken, until the query changes. */
  const [takenFor, setTakenFor] = useState<string | undefined>(undefined);

  const token = tokenAt(draft, cursor);
  const open = token !== undefined && closedAt !== token.start;
  const query = token?.query ?? '';
  const answer = useView((s) => s.mentionResults.get(query));
  const store = useViewStore();
  useEffect(() => {
    if (open) postToHost({ type: 'mention_search', query: query.slice(0, 500) });
    else forgetMentionAnswers(store);
  }, [open, query]);

  const q = query.toLowerCase();
  const items: Item[] = open
    ? [
        ...KINDS.filter((k) => !q.includes('/') && k.value.startsWith(q)),
        ...(answer ?? []).map((p) => ({ value: p, hint: p.endsWith('/') ? 'folder' : '' })),
      ]
    : [];
  const shown = Math.min(active, Math.max(0, items.length - 1));
  const searching = open && answer === undefined;

  const pick = (item: Item): void => {
    if (!token) return;
    const quoted = /\s/.test(item.value) ? `"${item.value}"` : item.value;
    // A folder stays open (no space after it) so the next level can be picked.
    const insert = `@${quoted}${item.value.endsWith('/') ? '' : ' '}`;
    const next = draft.slice(0, token.start) + insert + draft.slice(cursor);
    const at = token.start + insert.length;
    onDraft(next);
    setActive(0);
    setCursor(at);
    requestAnimationFrame(() => { ta.current?.focus(); ta.current?.setSelectionRange(at, at); });
  };

  useEffect(() => {
    if (!pickWhenReady || searching) return;
    setPickWhenReady(false);
    if (open && items.length > 0) pick(items[0]!);
    else if (open) setTakenFor(query);
  }, [pickWhenReady, searching]);

  const sync = (): void => {
    const el = ta.current;
    if (el) setCursor(el.selectionStart ?? 0);
    setActive(0);
  };

  /** True when the key was the picker's (the composer must not act on it too). */
  const onKeyDown = (e: KeyboardEvent): boolean => {
    if (!open) return false;
    if (((e.key === 'Enter' && !e.shiftKey) || e.key === 'Tab') && (searching || items.length === 0)) {
      // Not sent as plain text: wait for the results (or, with no match, for Escape).
      e.preventDefault();
      if (searching) setPickWhenReady(true);
      else setTakenFor(query);
      return true;
    }
    if (e.key === 'Escape') {
      e.preventDefault();
      setPickWhenReady(false);
      setClosedAt(token!.start);
      return true;
    }
    if (items.length === 0) return false;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const d = e.key === 'ArrowDown' ? 1 : -1;
      setActive((shown + d + items.length) % items.length);
      return true;
    }
    if ((e.key === 'Enter' && !e.shiftKey) || e.key === 'Tab') {
      e.preventDefault();
      pick(items[shown]!);
      return true;
    }
    return false;
  };

  const popup = open && (
    <ul class="mention-picker" role="listbox" aria-label="Mention" aria-busy={searching}>
      {items.slice(0, 24).map((it, i) => (
        <li
          key={it.value}
          role="option"
          aria-selected={i === shown}
          class={i === shown ? 'active' : undefined}
          onMouseDown={(e) => { e.preventDefault(); pick(it); }}
        >
          <span class="mention-value">@{it.value}</span>
          {it.hint && <span class="muted"> {it.hint}</span>}
        </li>
      ))}
      {(searching || items.length === 0) && <li class="muted" aria-disabled="true">{status(searching, pickWhenReady, takenFor === query)}</li>}
    </ul>
  );

  return { onKeyDown, sync, popup };
}
