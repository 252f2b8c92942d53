/**
 * What the workbench has written to the browser of the chat's open-task memory. In code-server the
 * editor's workspace state lives in the browser's IndexedDB, and the workbench writes it there a
 * moment after the extension has set it: a reload before that write loses it, whatever the extension
 * waited for (VS Code's own limit, not Tandem's; see core/runtime/taskRuntime.ts forgetOpenTask). A
 * test that reloads waits for the write a user's reload depends on, rather than racing it.
 */
import type { Page } from 'playwright-core';
import { waitUntil } from '../support/wait';

/** The task ids the workbench's stored states hold as open (none: an empty task was open, or nothing stored yet). */
export function storedOpenTasks(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const request = <T>(r: IDBRequest<T>) => new Promise<T>((resolve, reject) => {
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
    const ids: string[] = [];
    for (const d of await indexedDB.databases()) {
      if (!d.name?.startsWith('vscode-web-state-db-')) continue;
      const db = await request(indexedDB.open(d.name));
      try {
        if (!db.objectStoreNames.contains('ItemTable')) continue;
        const values = await request(db.transaction('ItemTable', 'readonly').objectStore('ItemTable').getAll());
        for (const v of values) {
          const id = typeof v === 'string' ? /"tandem\.openTask":"([^"]+)"/.exec(v)?.[1] : undefined;
          if (id) ids.push(id);
        }
      } finally {
        db.close();
      }
    }
    return ids;
  });
}

/** Waits until the workbench has stored that a task is open (`'a task'`) or that none is (`'none'`). */
export async function waitForStoredOpenTask(page: Page, expected: 'a task' | 'none'): Promise<void> {
  await waitUntil(async () => {
    const ids = await storedOpenTasks(page);
    return expected === 'none' ? ids.length === 0 : ids.length > 0;
  }, expected === 'none' ? 'the workbench to store that no task is open' : 'the workbench to store the open task', 30_000);
}
