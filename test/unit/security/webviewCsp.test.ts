/**
 * Promise 6: the webview's CSP. The page the panel really produces (`chatHtml` with a fresh nonce)
 * is served with the real webview bundle (built as shipped) and opened in Debian's Chromium.
 * `acquireVsCodeApi` is injected as an init script, the way VS Code injects it outside the page's
 * CSP. Model text full of script, event handlers and javascript: links is fed through the bundle's
 * own message handler; a global flag must stay unset. Then markup is forced into the DOM directly
 * (as a sanitiser bug would) to show the CSP itself blocks inline scripts, handlers, eval and
 * remote origins.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { chatCsp, chatHtml, makeNonce } from '../../../src/panel/html';
import { requireChromium } from '../../support/prerequisites';
import { tempDir } from './securityKit';
import { installVscodeStub, vscodeStub } from './vscodeStub';

installVscodeStub();
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ChatViewProvider } = require('../../../src/panel/chatViewProvider') as typeof import('../../../src/panel/chatViewProvider');

/* eslint-disable @typescript-eslint/no-explicit-any */
declare const window: any;
declare const document: any;

const repoRoot = path.resolve(__dirname, __dirname.includes(path.join('out', 'test')) ? '../../../..' : '../../..');
const importRepo = async <T>(rel: string): Promise<T> => (await import(pathToFileURL(path.join(repoRoot, rel)).href)) as T;

/** Markup a model might emit, each trying to set `window.__pwned`. */
const ATTACKS = [
  '<script>window.__pwned = "script"</script>',
  '<img src=x onerror="window.__pwned = \'img-onerror\'">',
  '<svg onload="window.__pwned = \'svg-onload\'"><circle r=1></circle></svg>',
  '<iframe srcdoc="<script>parent.__pwned = \'iframe\'</script>"></iframe>',
  '<a href="javascript:window.__pwned = \'js-link\'" id="jslink">click me</a>',
  '[markdown link](javascript:window.__pwned=\'md-link\')',
  '<details open ontoggle="window.__pwned = \'ontoggle\'"><summary>x</summary></details>',
  '<style>@import url(http://127.0.0.1:1/x.css);</style>',
  '<object data="javascript:window.__pwned=\'object\'"></object>',
  '<form action="javascript:window.__pwned=\'form\'"><button id="formbtn">go</button></form>',
  '![img](x" onerror="window.__pwned=\'md-img\')',
  '<body onload="window.__pwned = \'body\'">',
  '<math><mtext><table><mglyph><style><img src=x onerror="window.__pwned=\'mxss\'">',
].join('\n\n');

describe('security: the webview CSP holds in real Chromium (the panel\'s own HTML and bundle)', function () {
  this.timeout(90_000);
  let dir: string;
  let server: http.Server;
  let beacon: http.Server;
  let beaconHits: string[];
  let origin: string;
  let beaconOrigin: string;
  let browser: Browser | undefined;
  let closeBrowser: (() => Promise<void>) | undefined;
  let page: Page;
  let nonce: string;
  let violations: string[];
  let lastOptions: { enableScripts?: boolean; enableCommandUris?: boolean; localResourceRoots?: { fsPath: string }[] } | undefined;
  const session = { role: 'planner' as const, handle: () => {}, onOutbound: () => ({ dispose() {} }), onRoleChanged: () => ({ dispose() {} }) };
  const provider = new ChatViewProvider(vscodeStub.Uri.file(repoRoot) as never, session, { info() {}, warn() {}, error() {}, debug() {} });
  const fakeView = () => {
    const webview = {
      options: {} as NonNullable<typeof lastOptions>,
      html: '',
      get cspSource() { return origin; },
      asWebviewUri: (u: { fsPath: string }) => ({ toString: () => `${origin}/${path.relative(repoRoot, u.fsPath).split(path.sep).join('/')}` }),
      postMessage: async () => true,
      onDidReceiveMessage: () => ({ dispose() {} }),
    };
    return { webview, onDidDispose: () => ({ dispose() {} }), show() {} };
  };

  before(async function () {
    requireChromium();
    dir = tempDir('tandem-sec-csp-');
    const { buildWebview } = await importRepo<{ buildWebview(out: string): Promise<{ js: string; css: string }> }>('test/ui/webview-standalone/harness.mjs');
    const files = await buildWebview(path.join(dir, 'dist'));
    beaconHits = [];
    beacon = http.createServer((req, res) => {
      beaconHits.push(req.url ?? '');
      res.writeHead(200, { 'access-control-allow-origin': '*' });
      res.end('x');
    });
    await new Promise<void>((r) => beacon.listen(0, '127.0.0.1', r));
    beaconOrigin = `http://127.0.0.1:${(beacon.address() as AddressInfo).port}`;
    server = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', origin);
      if (url.pathname === '/dist/webview.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(fs.readFileSync(files.js));
      if (url.pathname === '/dist/webview.css') return void res.writeHead(200, { 'content-type': 'text/css' }).end(fs.existsSync(files.css) ? fs.readFileSync(files.css) : '');
      if (url.pathname !== '/') return void res.writeHead(404).end();
      // The page exactly as the chat view provider builds it for VS Code, with this server as the
      // webview origin (asWebviewUri maps the extension's dist/ onto it).
      const view = fakeView();
      provider.resolveWebviewView(view as never);
      lastOptions = view.webview.options;
      nonce = /nonce="([^"]+)"/.exec(view.webview.html)![1]!;
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(view.webview.html);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { launchChromium } = await importRepo<{ launchChromium(): Promise<{ browser: Browser; close(): Promise<void> }> }>('scripts/chromium.mjs');
    ({ browser, close: closeBrowser } = await launchChromium());
  });
  after(async () => {
    await closeBrowser?.();
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    await new Promise<void>((r) => (beacon ? beacon.close(() => r()) : r()));
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    const context = await browser!.newContext();
    page = await context.newPage();
    violations = [];
    await page.exposeFunction('__reportViolation', (v: string) => void violations.push(v));
    await page.addInitScript(() => {
      window.__sent = [];
      window.acquireVsCodeApi = () => ({ postMessage: (m: unknown) => window.__sent.push(m), getState: () => undefined, setState: () => {} });
      document.addEventListener('securitypolicyviolation', (e: any) => window.__reportViolation(`${e.violatedDirective} ${e.blockedURI}`));
    });
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => window.__sent.some((m: { type: string }) => m.type === 'ready'));
  });
  afterEach(async () => {
    await page?.context().close();
  });

  const post = (data: unknown) => page.evaluate((d) => window.postMessage(d, '*'), data);
  const pwned = () => page.evaluate(() => window.__pwned);

  it('the chat view provider serves that page with command URIs off and resources only from dist/ and media/', async () => {
    const res = await fetch(`${origin}/`);
    const html = await res.text();
    assert.ok(lastOptions, 'the provider set the webview options');
    assert.equal(lastOptions!.enableScripts, true);
    assert.equal(lastOptions!.enableCommandUris, false);
    assert.deepEqual(lastOptions!.localResourceRoots!.map((u) => path.relative(repoRoot, u.fsPath)).sort(), ['dist', 'media']);
    assert.ok(html.includes(chatCsp({ cspSource: origin, nonce }).replace(/&/g, '&amp;')), 'the meta CSP is chatCsp for this origin and nonce');
    const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]!);
    assert.deepEqual(scripts, [` type="module" nonce="${nonce}" src="${origin}/dist/webview.js"`]);
  });

  it('the HTML the panel produces: nonce\'d bundle only, default-src none, no unsafe-*, no remote origin', () => {
    const n = makeNonce();
    const html = chatHtml({ cspSource: 'vscode-webview://abc', nonce: n, scriptUri: 'vscode-webview://abc/dist/webview.js', styleUris: [] });
    const csp = chatCsp({ cspSource: 'vscode-webview://abc', nonce: n });
    assert.ok(html.includes(csp.replace(/'/g, "'")), 'the meta tag carries chatCsp');
    const d = Object.fromEntries(csp.split(';').map((x) => x.trim().split(/\s+/)).map(([k, ...v]) => [k!, v]));
    assert.deepEqual(d['default-src'], ["'none'"]);
    assert.deepEqual(d['script-src'], [`'nonce-${n}'`]);
    for (const [k, v] of Object.entries(d)) {
      for (const src of v) {
        assert.doesNotMatch(src, /unsafe-inline|unsafe-eval|unsafe-hashes|strict-dynamic|^\*$|^https?:$|^blob:$/, `${k} ${src}`);
        // data: only for images (inline icons); a data: image cannot run code.
        if (src === 'data:') assert.equal(k, 'img-src');
        else assert.ok(src.startsWith("'") || src === 'vscode-webview://abc', `${k} allows only the webview origin: ${src}`);
      }
    }
    for (const k of ['connect-src', 'frame-src', 'form-action', 'base-uri']) assert.deepEqual(d[k], ["'none'"], k);
    assert.equal([...html.matchAll(/<script\b/g)].length, 1);
  });

  it('model text with scripts, handlers and javascript: links never runs code (snapshot, streamed deltas, every card kind)', async () => {
    const ts = Date.now();
    await post({ type: 'snapshot', seq: 1, role: 'planner', cards: [
      { kind: 'text', id: 'u1', author: 'user', text: ATTACKS, ts },
      { kind: 'text', id: 'a1', author: 'assistant', text: ATTACKS, ts },
      { kind: 'tool_call', id: 't1', call_id: 'c1', tool: '<img src=x onerror="window.__pwned=\'tool\'">', summary: ATTACKS, args: { html: ATTACKS }, status: 'done', result: ATTACKS, ts },
      { kind: 'tool_call', id: 't2', call_id: 'c2', tool: 'edit_file', summary: 's', args: {}, status: 'pending', approval: { kind: 'edit', path: '<img src=x onerror="window.__pwned=\'path\'">', diff: ATTACKS, added: 1, removed: 1 }, ts },
      { kind: 'error', id: 'e1', message: ATTACKS, detail: ATTACKS, ts },
      { kind: 'question', id: 'q1', question: { question: ATTACKS, context: ATTACKS, severity: 'major', options: [{ label: '<img src=x onerror="window.__pwned=\'opt\'">', value: 'v', description: ATTACKS }], default: 'v', allow_custom: true }, ts },
    ] });
    // Streamed: the dangerous tag arrives split across deltas.
    await post({ type: 'card_added', seq: 2, card: { kind: 'text', id: 'a2', author: 'assistant', text: '', ts } });
    let seq = 3;
    for (const piece of ['Here: <scr', 'ipt>window.__pwned="split"</scr', 'ipt> and <img src=x on', 'error="window.__pwned=\'split-img\'"> [l](java', 'script:window.__pwned=1) done']) {
      await post({ type: 'text_appended', seq: seq++, id: 'a2', text: piece });
    }
    await page.waitForFunction(() => document.body.innerText.includes('done'));
    await page.waitForTimeout(300);
    // Click every link and button that came from model text: none may run code.
    for (const sel of ['a[href^="javascript"]', '#jslink', '#formbtn']) {
      for (const el of await page.locator(sel).all()) await el.click({ timeout: 1000 }).catch(() => {});
    }
    for (const el of await page.locator('a', { hasText: /markdown link|^l$/ }).all()) await el.click({ timeout: 1000 }).catch(() => {});
    await page.waitForTimeout(200);
    assert.equal(await pwned(), undefined);
    const dom = await page.evaluate(() => ({
      scripts: document.querySelectorAll('script').length,
      handlers: [...document.querySelectorAll('*')].filter((e: any) => [...e.attributes].some((a: any) => /^on/i.test(a.name))).length,
      jsLinks: [...document.querySelectorAll('[href],[src],[action],[data]')].filter((e: any) => /javascript:/i.test(e.getAttribute('href') ?? e.getAttribute('src') ?? e.getAttribute('action') ?? e.getAttribute('data') ?? '')).length,
      iframes: document.querySelectorAll('iframe,object,embed').length,
    }));
    assert.deepEqual(dom, { scripts: 1, handlers: 0, jsLinks: 0, iframes: 0 }, 'the sanitiser kept all of it as text');
    assert.deepEqual(beaconHits, []);
  });

  it('even markup forced into the DOM (a sanitiser bug) cannot run: inline script, handlers, eval, remote loads are blocked by the CSP', async () => {
    const result = await page.evaluate(async ({ beaconUrl, pageNonce }: { beaconUrl: string; pageNonce: string }) => {
      const root = document.getElementById('root');
      const holder = document.createElement('div');
      holder.innerHTML = `<img src="x" onerror="window.__pwned='forced-img'"><svg onload="window.__pwned='forced-svg'"></svg><a id="forcedlink" href="javascript:window.__pwned='forced-link'">x</a><img src="${beaconUrl}/img">`;
      root.appendChild(holder);
      const s = document.createElement('script');
      s.textContent = 'window.__pwned = "forced-script"';
      document.body.appendChild(s);
      const s2 = document.createElement('script');
      s2.src = `${beaconUrl}/remote.js`;
      document.body.appendChild(s2);
      // eval from page code (the nonce'd bundle is the only page code; a script carrying the page's
      // nonce stands in for it — a code path in the bundle that evaluated model text).
      const probe = document.createElement('script');
      probe.nonce = pageNonce;
      // It runs from a timer, a task of the page's own: code called from the test driver (DevTools
      // protocol) is exempt from the eval check, page code is not.
      probe.textContent = `
        setTimeout(() => {
          try { (0, eval)('window.__pwned = "eval"'); window.__evalResult = 'ran'; } catch (e) { window.__evalResult = e.name; }
          try { new Function('window.__pwned = "function"')(); window.__fnResult = 'ran'; } catch (e) { window.__fnResult = e.name; }
          try { setTimeout('window.__pwned = "timeout-string"', 0); } catch (e) {}
          window.__probeRan = true;
        }, 0);`;
      document.body.appendChild(probe);
      await new Promise((r) => setTimeout(r, 100));
      const evalResult = window.__probeRan ? window.__evalResult : 'probe did not run';
      const fnResult = window.__fnResult;
      let fetchResult = 'ok';
      try { await fetch(`${beaconUrl}/fetch`); } catch (e: any) { fetchResult = e.name; }
      document.getElementById('forcedlink').click();
      await new Promise((r) => setTimeout(r, 500));
      return { evalResult, fnResult, fetchResult };
    }, { beaconUrl: beaconOrigin, pageNonce: nonce });
    assert.equal(await pwned(), undefined, 'no injected code ran');
    assert.deepEqual(result, { evalResult: 'EvalError', fnResult: 'EvalError', fetchResult: 'TypeError' });
    assert.deepEqual(beaconHits, [], 'no request reached another origin');
    assert.ok(violations.some((v) => v.startsWith('script-src')), `the CSP reported the blocks: ${violations.join('; ')}`);
    assert.ok(violations.some((v) => v.startsWith('connect-src')), violations.join('; '));
  });
});
