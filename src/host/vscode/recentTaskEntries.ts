/**
 * The empty chat's recent tasks as they are listed: the whole date with the task's size on a line
 * of its own (a list of past tasks spans days and years), and tasks with the same first request
 * told apart by the second they started, first on that line: a narrow side bar cuts a long title,
 * never the line under it (it wraps). Worded here, so the webview only shows them.
 */
import type { TaskMeta } from '../../core/history/format';

const dateFormat = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
const clockFormat = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });

export function recentTaskEntries(tasks: readonly Pick<TaskMeta, 'id' | 'title' | 'updated' | 'created' | 'cards'>[]): { id: string; title: string; updated: number; detail: string }[] {
  const count = new Map<string, number>();
  for (const t of tasks) count.set(t.title, (count.get(t.title) ?? 0) + 1);
  return tasks.map((t) => ({
    id: t.id,
    title: t.title,
    updated: t.updated,
    detail: `${(count.get(t.title) ?? 0) > 1 ? `started ${clockFormat.format(t.created)} · ` : ''}${dateFormat.format(t.updated)} · ${t.cards} card${t.cards === 1 ? '' : 's'}`,
  }));
}
