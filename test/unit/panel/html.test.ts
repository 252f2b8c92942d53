import * as assert from 'node:assert';
import { chatCsp, chatHtml, makeNonce } from '../../../src/panel/html';

const CSP_SOURCE = 'https://file+.vscode-resource.vscode-cdn.net';

describe('chat page HTML', () => {
  it('allows scripts only by nonce and styles/fonts only from the webview origin', () => {
    const csp = chatCsp({ cspSource: CSP_SOURCE, nonce: 'abc123' });
    const directives = Object.fromEntries(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k, v]));
    assert.deepStrictEqual(directives['default-src'], ["'none'"]);
    assert.deepStrictEqual(directives['script-src'], ["'nonce-abc123'"]);
    assert.deepStrictEqual(directives['style-src'], [CSP_SOURCE]);
    assert.deepStrictEqual(directives['font-src'], [CSP_SOURCE]);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/);
  });

  it('loads the bundle as the only script, carrying the nonce, with no inline code', () => {
    const html = chatHtml({ cspSource: CSP_SOURCE, nonce: 'n0nce', scriptUri: `${CSP_SOURCE}/ext/dist/webview.js`, styleUris: [`${CSP_SOURCE}/ext/dist/webview.css`] });
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    assert.strictEqual(scripts.length, 1);
    assert.match(scripts[0][1], /nonce="n0nce"/);
    assert.match(scripts[0][1], /src="https:\/\/file\+\.vscode-resource\.vscode-cdn\.net\/ext\/dist\/webview\.js"/);
    assert.strictEqual(scripts[0][2].trim(), '');
    assert.match(html, /<link rel="stylesheet" href="[^"]+webview\.css">/);
    assert.match(html, /<div id="root"><\/div>/);
    assert.doesNotMatch(html, /\sstyle="|\son\w+="/, 'no inline styles or handlers');
  });

  it('escapes what it puts in attributes', () => {
    const html = chatHtml({ cspSource: CSP_SOURCE, nonce: 'n', scriptUri: 'x"><script>alert(1)</script>', styleUris: [] });
    assert.strictEqual([...html.matchAll(/<script\b/g)].length, 1);
  });

  it('makes a fresh, unguessable nonce each time', () => {
    const seen = new Set(Array.from({ length: 50 }, makeNonce));
    assert.strictEqual(seen.size, 50);
    for (const n of seen) assert.match(n, /^[A-Za-z0-9+/=]{24}$/);
  });
});
