// Standalone harness for the webview bundle: builds it (minified, as shipped), serves it from a tiny
// page on 127.0.0.1 that fakes `acquireVsCodeApi` under a CSP like the panel's, and opens it in
// Debian's Chromium through playwright-core. Used by bench/webview.bench.mjs and screenshot.mjs.
import * as esbuild from 'esbuild';
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { launchChromium } from '../../../scripts/chromium.mjs';
import { themes } from './themes.mjs';

const root = resolve(new URL('../../..', import.meta.url).pathname);

/** Same options as esbuild.mjs's webview target, minified like `npm run build:prod`. */
export async function buildWebview(outdir) {
  await esbuild.build({
    entryPoints: { webview: join(root, 'webview-ui/src/main.tsx') },
    outdir, bundle: true, minify: !process.env.TANDEM_WEBVIEW_NO_MINIFY, sourcemap: false, legalComments: 'none',
    platform: 'browser', format: 'esm', target: 'es2022', jsx: 'automatic', jsxImportSource: 'preact',
    loader: { '.ttf': 'file', '.woff2': 'file' }, logLevel: 'warning',
  });
  return { js: join(outdir, 'webview.js'), css: join(outdir, 'webview.css') };
}

function page(origin, theme, nonce) {
  const t = themes[theme] ?? themes.dark;
  const vars = Object.entries(t.vars).map(([k, v]) => `${k}:${v}`).join(';').replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  // The fake API is the only inline script, allowed by nonce as a panel would allow its own.
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${origin}; script-src ${origin} 'nonce-${nonce}'; img-src ${origin} data:; font-src ${origin};">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="${origin}/webview.css"></head>
<body class="${t.bodyClass}" data-vars="${vars}"><div id="root"></div>
<script nonce="${nonce}">
  for (const kv of document.body.dataset.vars.split(';')) { const i = kv.indexOf(':'); document.documentElement.style.setProperty(kv.slice(0, i), kv.slice(i + 1)); }
  window.__sent = [];
  // Like VS Code, the state survives the page being torn down and re-created (hidden and shown).
  window.acquireVsCodeApi = () => ({
    postMessage: (m) => { window.__sent.push(m); if (window.__onSent) window.__onSent(m); },
    getState: () => { const s = sessionStorage.getItem('vscode-state'); return s ? JSON.parse(s) : undefined; },
    setState: (s) => { window.__state = s; sessionStorage.setItem('vscode-state', JSON.stringify(s)); },
  });
</script>
<script type="module" src="${origin}/webview.js"></script></body></html>`;
}

export async function startHarness({ theme = 'dark', width = 420, height = 900 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'tandem-webview-'));
  const files = await buildWebview(join(dir, 'dist'));
  const nonce = Math.random().toString(36).slice(2);
  let origin = '';
  let currentTheme = theme;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', origin);
    if (url.pathname === '/webview.js') { res.writeHead(200, { 'content-type': 'text/javascript' }); res.end(readFileSync(files.js)); return; }
    if (url.pathname === '/webview.css') { res.writeHead(200, { 'content-type': 'text/css' }); res.end(readFileSync(files.css)); return; }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(page(origin, url.searchParams.get('theme') ?? currentTheme, nonce));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${server.address().port}`;
  // The project's launcher: Debian's Chromium, fresh profile, HOME in a temp folder.
  const { browser, close: closeBrowser } = await launchChromium();
  const context = await browser.newContext({ viewport: { width, height } });
  const pg = await context.newPage();
  const consoleErrors = [];
  pg.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') consoleErrors.push(`${m.type()}: ${m.text()}`); });
  pg.on('pageerror', (e) => consoleErrors.push(`pageerror: ${e.message}`));
  return {
    origin, page: pg, files, consoleErrors,
    async open(t = currentTheme) {
      currentTheme = t;
      await pg.goto(`${origin}/?theme=${t}`);
      await pg.evaluate(() => sessionStorage.clear());
      await pg.reload();
      await pg.waitForFunction(() => window.__sent?.some((m) => m.type === 'ready'));
    },
    /** Posts host messages into the page as the extension would (one object or an array). */
    async post(data) {
      await pg.evaluate((d) => window.postMessage(d, '*'), data);
    },
    async close() {
      await closeBrowser();
      await new Promise((r) => server.close(r));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
