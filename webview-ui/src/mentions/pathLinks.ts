/**
 * Paths in the model's answers open in the editor: inline code that looks like a workspace path,
 * optionally with lines (`src/cart.ts`, `src/cart.ts:12`, `src/cart.ts:12-20`), is rendered as a link
 * (renderMarkdown) and a click asks the host to open it — the host opens only files inside the workspace.
 */
import { postToHost } from '../bridge/vscodeApi';

export function openPathLink(e: MouseEvent): void {
  const a = (e.target as Element | null)?.closest?.('a[data-path]') as HTMLAnchorElement | null;
  if (!a) return;
  e.preventDefault();
  const p = a.dataset.path;
  if (p) postToHost({ type: 'open_file', path: p.slice(0, 4096) });
}
