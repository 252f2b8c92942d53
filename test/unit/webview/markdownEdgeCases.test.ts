import assert from 'node:assert/strict';
import { loadWebviewModule } from './loadWebviewModule';

type Md = typeof import('../../../webview-ui/src/markdown/renderMarkdown');
type Core = typeof import('../../../webview-ui/src/markdown/markdown');

/**
 * What a user saw wrong in the chat's Markdown, and the shapes that used to stall it: each renders
 * as a reader expects, and the pathological ones render at all (their time is bench/markdown.bench.mjs's).
 */
describe('webview markdown: what users saw wrong, and the shapes that stalled the chat', () => {
  let md: Md;
  let core: Core;
  before(async () => {
    md = await loadWebviewModule<Md>('webview-ui/src/markdown/renderMarkdown.ts');
    core = await loadWebviewModule<Core>('webview-ui/src/markdown/markdown.ts');
  });
  const flat = (s: string) => s.replace(/\n/g, '');
  const anchors = (html: string) => (html.match(/<a\b/g) ?? []).length;

  it('an email address with _ in its local part links to that address, whole', () => {
    assert.equal(flat(md.renderMarkdown('Write to support_team@example.com today.')),
      '<p>Write to <a href="mailto:support_team@example.com">support_team@example.com</a> today.</p>');
  });

  it('a badge — an image inside a link — is one link with the image\'s label, not raw ![CI](…)', () => {
    const html = flat(md.renderMarkdown('[![CI](https://ci.example.com/badge.svg)](https://ci.example.com/runs)'));
    assert.equal(html, '<p><a href="https://ci.example.com/runs">[image: CI]</a></p>');
  });

  it('a workspace path in a link\'s text makes no second link inside the first', () => {
    const html = md.renderMarkdown('See [`src/cart.ts`](https://example.com/blob/src/cart.ts) and `src/cart.ts` alone.');
    assert.equal(anchors(html), 2, html);
    assert.doesNotMatch(html, /<a [^>]*>(?:(?!<\/a>).)*<a /s, 'an anchor inside an anchor');
    assert.match(html, /<a href="https:\/\/example.com\/blob\/src\/cart.ts"><code>src\/cart.ts<\/code><\/a>/);
    assert.match(html, /class="path-link" data-path="src\/cart.ts"/);
  });

  it('a link target with a control character is refused, never passed on as a relative link', () => {
    assert.equal(md.safeHref('h\u0001ttp://example.com'), null);
    assert.equal(md.safeHref('https://exa\u0000mple.com'), null);
    assert.equal(md.safeHref('https://example.com/\u0085'), null);
    assert.equal(md.safeHref('https://example.com/a b'), 'https://example.com/a b');
    assert.equal(anchors(md.renderMarkdown('[x](h\u0001ttp://example.com)')), 0);
  });

  it('link targets with nested parentheses and entity references, as CommonMark reads them', () => {
    assert.equal(flat(md.renderMarkdown('[a](https://x.io/(b(c)) "t") [b](https://x.io/?a=1&amp;b=&#50;)')),
      '<p><a href="https://x.io/(b(c))" title="t">a</a> <a href="https://x.io/?a=1&amp;b=2">b</a></p>');
    assert.equal(flat(md.renderMarkdown('[a](<https://x.io/a b> \'quoted\')')), '<p><a href="https://x.io/a b" title="quoted">a</a></p>');
    assert.equal(flat(md.renderMarkdown('[a](https://x.io "unclosed)')), '<p>[a](<a href="https://x.io">https://x.io</a> &quot;unclosed)</p>');
  });

  it('a bare URL followed by many ) keeps only the balanced ones; a URL past 2 KB stays text', () => {
    const html = flat(md.renderMarkdown(`http://a.io/(x)${')'.repeat(1000)}`));
    assert.ok(html.startsWith('<p><a href="http://a.io/(x)">http://a.io/(x)</a>)))'), html.slice(0, 80));
    assert.equal((html.match(/\)/g) ?? []).length, 2 + 1000);
    const long = `https://example.com/${'a'.repeat(3000)}`;
    assert.equal(anchors(md.renderMarkdown(`see ${long} and https://b.io`)), 1);
  });

  it('nesting deeper than MAX_DEPTH renders (no stack overflow) and the rest reads as text', () => {
    const html = md.renderMarkdown(`${'- '.repeat(5000)}deep`);
    const lists = (html.match(/<ul>/g) ?? []).length;
    assert.ok(lists > 50 && lists <= core.MAX_DEPTH + 1, `${lists} nested lists`);
    assert.match(html, /deep<\/p>/);
    const quotes = md.renderMarkdown(`${'> '.repeat(5000)}deep`);
    assert.ok((quotes.match(/<blockquote>/g) ?? []).length <= core.MAX_DEPTH + 1);
    assert.match(quotes, /deep/);
  });

  it('a table is capped at MAX_TABLE_CELLS cells; the rows past it read as text, nothing is lost', () => {
    const rows = Array.from({ length: 11_000 }, (_, k) => `|r${k}|1|`).join('\n');
    const html = md.renderMarkdown(`| a | b |\n|---|---|\n${rows}`);
    const cells = (html.match(/<td/g) ?? []).length;
    assert.ok(cells <= core.MAX_TABLE_CELLS && cells >= core.MAX_TABLE_CELLS - 4, `${cells} cells`);
    assert.match(html, /r10999/);
    // n columns × n short rows: padding each row to the header's width would write n² cells.
    const n = 2000;
    const wide = md.renderMarkdown(`${'|a'.repeat(n)}|\n${'|-'.repeat(n)}|\n${'|\n'.repeat(n)}`);
    assert.ok(wide.length < 12 * core.MAX_TABLE_CELLS + 20 * n, `${wide.length} bytes of output`);
  });

  it('a table delimiter row followed by a long run of blanks is still one row; a broken one is text', () => {
    assert.match(md.renderMarkdown(`| a | b |\n|---|--- ${' '.repeat(10000)}|\n| 1 | 2 |`), /<td>2<\/td>/);
    assert.doesNotMatch(md.renderMarkdown(`| a | b |\n|-${' '.repeat(10000)}x`), /<table>/);
  });

  it('lines of text with trailing spaces keep their hard breaks; long runs of blanks inside a line stay', () => {
    const html = md.renderMarkdown(`${'a  \n'.repeat(2000)}end`);
    assert.equal((html.match(/<br>/g) ?? []).length, 2000);
    assert.equal(md.renderMarkdown(`# title ${' '.repeat(5000)}x`), `<h1>title ${' '.repeat(5000)}x</h1>\n`);
  });

  it('a text past MAX_TEXT is shown as it is, escaped, in one code block', () => {
    const big = `<b>${'x'.repeat(core.MAX_TEXT)}</b> **not bold**`;
    const html = md.renderMarkdown(big);
    assert.doesNotMatch(html, /<b>|<strong>/);
    assert.match(html, /&lt;b&gt;x/);
    assert.match(html, /\*\*not bold\*\*<\/code><\/pre>/);
  });

  it('emphasis: an unmatched closer kind does not stop later pairs (openers bottom)', () => {
    assert.equal(flat(md.renderMarkdown(`${'_a '.repeat(50)}b* c* *d* _e_`)).endsWith('b* c* <em>d</em> <em>e</em></p>'), true);
  });

  it('a blank line inside a nested item spaces out that item only, not the whole list around it', () => {
    const html = flat(md.renderMarkdown('- Build\n  - compile\n\n    then bundle\n- Test\n- Ship'));
    assert.equal(html, '<ul><li>Build<ul><li><p>compile</p><p>then bundle</p></li></ul></li><li>Test</li><li>Ship</li></ul>');
    // A fence with blank lines in an item leaves its list tight too.
    assert.match(flat(md.renderMarkdown('- a\n- ```\n  x\n\n  y\n  ```\n- c')), /^<ul><li>a<\/li>/);
    // A blank line between a nested list and more text of the item does space out the outer list.
    assert.match(flat(md.renderMarkdown('- a\n  - b\n\n  c\n- d')), /<li><p>d<\/p><\/li>/);
  });

  it('tabs indent as four columns where they stand: a tab-indented block under an item is code', () => {
    const html = md.renderMarkdown('- Run it:\n\n\t\tnpm test');
    assert.match(html, /<pre><code>  npm test<\/code><\/pre>/);
    assert.match(md.renderMarkdown('  \tindented by a tab'), /<pre><code>indented by a tab<\/code><\/pre>/);
  });

  it('a link written inside a link\'s text: the inner one is the link, the outer brackets stay text', () => {
    const html = flat(md.renderMarkdown('[see [the docs](https://a.io/docs)](https://a.io/home)'));
    assert.match(html, /^<p>\[see <a href="https:\/\/a.io\/docs">the docs<\/a>\]\(/);
    assert.doesNotMatch(html, /<a [^>]*>(?:(?!<\/a>).)*<a /, 'an anchor inside an anchor');
    // A badge (an image in a link) is still one link.
    assert.equal(flat(md.renderMarkdown('[![CI](https://ci.io/b.svg)](https://ci.io/runs)')), '<p><a href="https://ci.io/runs">[image: CI]</a></p>');
  });

  it('a code fence still open at the end of a streamed text shows no empty last line', () => {
    assert.match(md.renderMarkdown('```ts\nconst a = 1;\n'), /<pre><code>const a = 1;<\/code><\/pre>/);
  });
});
