import assert from 'node:assert/strict';
import { loadWebviewModule } from './loadWebviewModule';

type Md = typeof import('../../../webview-ui/src/markdown/renderMarkdown');

/** The only elements model text may produce; anything else means raw HTML got through. */
const ALLOWED_TAGS = new Set(['p', 'a', 'code', 'pre', 'div', 'span', 'button', 'strong', 'em', 'del', 'ul', 'ol', 'li',
  'table', 'thead', 'tbody', 'tr', 'th', 'td', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'hr', 'br', 'input']);

function tagsIn(html: string): string[] {
  return [...html.matchAll(/<([a-zA-Z][a-zA-Z0-9-]*)/g)].map((m) => m[1]!.toLowerCase());
}
function hrefsIn(html: string): string[] {
  return [...html.matchAll(/<a\s[^>]*href="([^"]*)"/g)].map((m) => m[1]!);
}

describe('webview markdown sanitising', () => {
  let md: Md;
  before(async () => {
    md = await loadWebviewModule<Md>('webview-ui/src/markdown/renderMarkdown.ts');
  });

  it('shows an <img onerror> from the model as text, never as an element', () => {
    const html = md.renderMarkdown('Look: <img src=x onerror=alert(1)> done');
    assert.ok(!tagsIn(html).includes('img'), html);
    assert.match(html, /&lt;img src=x onerror=alert\(1\)&gt;/);
  });

  it('shows <script> blocks and inline event handlers as text', () => {
    for (const input of ['<script>alert(1)</script>', 'a <script src="//evil"></script> b', '<div onclick="x()">hi</div>', '<svg><script>1</script></svg>', '<iframe src="https://evil"></iframe>']) {
      const html = md.renderMarkdown(input);
      for (const t of tagsIn(html)) assert.ok(ALLOWED_TAGS.has(t), `tag <${t}> leaked from ${JSON.stringify(input)}: ${html}`);
      assert.doesNotMatch(html, /<[^>]*\son[a-z]+\s*=/i, html);
    }
  });

  it('drops javascript: and other unsafe link targets but keeps http(s) and mailto links', () => {
    const input = [
      '[a](javascript:alert(1))', '[b](JaVaScRiPt:alert(1))', '[c](java\tscript:alert(1))', '[d](&#106;avascript:alert(1))',
      '[e](data:text/html;base64,PHNjcmlwdD4=)', '[f](vscode://ms-vscode.foo/run)', '<javascript:alert(1)>',
      '[ok1](https://example.com/a?b=1&c=2)', '[ok2](http://localhost:8080)', '[ok3](mailto:dev@example.com)',
    ].join('\n\n');
    const html = md.renderMarkdown(input);
    assert.deepEqual(hrefsIn(html), ['https://example.com/a?b=1&amp;c=2', 'http://localhost:8080', 'mailto:dev@example.com']);
    // The link text stays visible even when its target is dropped.
    assert.match(html, />a</);
  });

  it('cannot break out of an href attribute', () => {
    const html = md.renderMarkdown('[x](https://a.com/"onmouseover="alert(1)) and <https://a.com/"><b>x</b>');
    assert.doesNotMatch(html, /<[^>]*\son[a-z]+\s*=/i, html);
    for (const t of tagsIn(html)) assert.ok(ALLOWED_TAGS.has(t), `tag <${t}> leaked: ${html}`);
  });

  it('turns images into links instead of loading them', () => {
    const html = md.renderMarkdown('![tracker](https://evil.example/pixel.png) ![x](javascript:alert(1))');
    assert.ok(!tagsIn(html).includes('img'), html);
    assert.deepEqual(hrefsIn(html), ['https://evil.example/pixel.png']);
  });

  it('renders fenced code escaped, with a Copy button and the language label', () => {
    const html = md.renderMarkdown('```ts"><script>\nconst a = "<b>" && 1;\n```');
    assert.match(html, /<button type="button" class="code-copy" data-copy="1">Copy<\/button>/);
    assert.match(html, /<code>const a = &quot;&lt;b&gt;&quot; &amp;&amp; 1;<\/code>/);
    for (const t of tagsIn(html)) assert.ok(ALLOWED_TAGS.has(t), `tag <${t}> leaked: ${html}`);
  });

  it('still renders ordinary markdown', () => {
    const html = md.renderMarkdown('# Title\n\n**bold** _it_ `code`\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |');
    for (const t of ['h1', 'strong', 'em', 'code', 'ul', 'li', 'table', 'td']) assert.ok(tagsIn(html).includes(t), `${t} missing: ${html}`);
  });

  it('renders a growing text the same way incrementally as in one piece', () => {
    const doc = [
      '# Plan', '', 'First paragraph with **bold**.', '', '```js', 'const a = 1;', '', '', 'const b = "<b>";', '```', '',
      'Second <script>x</script> paragraph.', '', '~~~', 'tilde fence', '', '~~~', '', '- a', '- b', '', '> quote', '', 'Last line',
    ].join('\n');
    // Every prefix, as tokens arrive: the streamed HTML must equal a full render of the same text.
    for (let i = 1; i <= doc.length; i++) {
      const text = doc.slice(0, i);
      assert.equal(md.renderStreamingMarkdown(text), md.renderMarkdown(text), `prefix of ${i} chars: ${JSON.stringify(text.slice(-30))}`);
    }
  });

  it('never cuts a streaming text inside a fenced code block', () => {
    const text = 'intro\n\n```\nline\n\nstill code\n';
    assert.equal(md.stableBlockBoundary(text), 'intro\n\n'.length);
    assert.equal(md.stableBlockBoundary('no blank line yet'), 0);
  });
});
