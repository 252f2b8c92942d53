/** Drags the workbench side bar's edge until it is about `width` px wide (the UI tests' 420 / 300 px layouts). */
import type { Page } from 'playwright-core';
import { waitUntil } from '../support/wait';

export async function setSidebarWidth(page: Page, width: number): Promise<void> {
  const sidebar = page.locator('.part.sidebar');
  const box = (await sidebar.boundingBox())!;
  if (Math.abs(box.width - width) < 20) return;
  await page.mouse.move(box.x + box.width + 1, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + width, box.y + box.height / 2, { steps: 8 });
  await page.mouse.up();
  await waitUntil(async () => Math.abs(((await sidebar.boundingBox())?.width ?? 0) - width) < 30, `the side bar to be ~${width} px wide`);
}
