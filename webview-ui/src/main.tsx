/**
 * Tandem's chat webview.
 *
 * Why Preact: the whole webview (JS + CSS) must stay ≤ 55 KB gzipped (peers ship
 * 1.6–2.2 MB). Preact's runtime + hooks is ~5 KB gzipped against ~45 KB for React + ReactDOM, and
 * it keeps the component model and JSX. The rest of the budget: the chat's own markdown renderer
 * (markdown/markdown.ts, ~3 KB gzipped; marked was ~12 KB). No zod: host messages are checked
 * against the protocol's shapes as data (state/decodeInbound.ts); test/unit/webview/webviewBundle
 * fails if a zod runtime comes back into the bundle.
 * No icon font: a handful of unicode glyphs, so nothing is fetched and no CDN is needed.
 * `npm run bench` (bench/webview.bench.mjs) prints the real gzipped size against the budget.
 */
import { render } from 'preact';
import { App } from './ui/App';
import { PanelBoundary } from './ui/PanelBoundary';
import './styles.css';

let root = document.getElementById('root');
if (!root) {
  // The panel's HTML may not provide a mount point; never leave the panel blank for that.
  root = document.createElement('div');
  root.id = 'root';
  document.body.appendChild(root);
}
render(<PanelBoundary><App /></PanelBoundary>, root);
