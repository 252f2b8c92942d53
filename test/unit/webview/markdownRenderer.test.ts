import assert from 'node:assert/strict';
import { loadWebviewModule } from './loadWebviewModule';

type Md = typeof import('../../../webview-ui/src/markdown/renderMarkdown');

/** What the chat's own renderer (webview-ui/src/markdown/markdown.ts) gives for what models write. */
describe('webview markdown renderer', () => {
  let md: Md;
  before(async () => {
    md = await loadWebviewModule<Md>('webview-ui/src/markdown/renderMarkdown.ts');
  });
  const flat = (s: string) => s.replace(/\n/g, '');

  it('emphasis by CommonMark rules: nesting, both at once, none inside snake_case words', () => {
    assert.equal(flat(md.renderMarkdown('***both*** **bold *nested* here** snake_case_word *a **b** c* ~~gone~~')),
      '<p><em><strong>both</strong></em> <strong>bold <em>nested</em> here</strong> snake_case_word <em>a <strong>b</strong> c</em> <del>gone</del></p>');
    assert.equal(flat(md.renderMarkdown('2 * 3 * 4 and a ** b')), '<p>2 * 3 * 4 and a ** b</p>');
  });

  it('nested and ordered lists, a start number, task items; loose items keep paragraphs', () => {
    assert.equal(flat(md.renderMarkdown('3. first\n4. second\n   - nested\n   - more\n5. third')),
      '<ol start="3"><li>first</li><li>second<ul><li>nested</li><li>more</li></ul></li><li>third</li></ol>');
    assert.equal(flat(md.renderMarkdown('- [ ] todo\n- [x] done')),
      '<ul><li><input disabled="" type="checkbox"> todo</li><li><input checked="" disabled="" type="checkbox"> done</li></ul>');
    assert.equal(flat(md.renderMarkdown('- a\n\n- b')), '<ul><li><p>a</p></li><li><p>b</p></li></ul>');
  });

  it('headings (ATX and setext), rules, quotes with lazy lines, indented code', () => {
    assert.equal(flat(md.renderMarkdown('## Two ##\n\nOne\n===\n\n---\n\n> quoted\nlazy')),
      '<h2>Two</h2><h1>One</h1><hr><blockquote><p>quotedlazy</p></blockquote>');
    assert.match(md.renderMarkdown('    const x = 1;'), /<pre><code>const x = 1;<\/code><\/pre>/);
  });

  it('tables with alignment and escaped pipes', () => {
    assert.equal(flat(md.renderMarkdown('| a | b |\n|:--|--:|\n| `x \\| y` | 2 |')),
      '<table><thead><tr><th align="left">a</th><th align="right">b</th></tr></thead><tbody><tr><td align="left"><code>x | y</code></td><td align="right">2</td></tr></tbody></table>');
  });

  it('bare URLs become links without their trailing punctuation; entities show as characters, never as tags', () => {
    assert.equal(flat(md.renderMarkdown('See https://example.com/a_(b). Or www.x.io, &copy; &#60;b&#62;')),
      '<p>See <a href="https://example.com/a_(b)">https://example.com/a_(b)</a>. Or <a href="http://www.x.io">www.x.io</a>, &copy; &#60;b&#62;</p>');
  });

  it('bare email addresses link with mailto:, as GitHub does', () => {
    assert.equal(flat(md.renderMarkdown('Mail dev@example.com or a.b+c@mail.example.org. Not x@y or @handle.')),
      '<p>Mail <a href="mailto:dev@example.com">dev@example.com</a> or <a href="mailto:a.b+c@mail.example.org">a.b+c@mail.example.org</a>. Not x@y or @handle.</p>');
  });

  it('hard breaks: two spaces or a backslash at the end of a line', () => {
    assert.equal(md.renderMarkdown('a  \nb\\\nc\nd'), '<p>a<br>\nb<br>\nc\nd</p>\n');
  });

  it('never lets a tag or an attribute through, whatever the mix of markdown and HTML', () => {
    const allowed = new Set(['p', 'a', 'code', 'pre', 'div', 'span', 'button', 'strong', 'em', 'del', 'ul', 'ol', 'li',
      'table', 'thead', 'tbody', 'tr', 'th', 'td', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'hr', 'br', 'input']);
    const pieces = ['<img src=x onerror=alert(1)>', '<script>', '</p>', '"', "'", '`', '``', '*', '**', '_', '~~', '[', ']', '(', ')', '![', '](', 'javascript:x', 'https://a.b/"x', '<', '>', '&', '&#60;', '\n', '\n\n', '- ', '1. ', '> ', '| ', '|---|', '```', '    ', '\\', '#', ' ', 'word', 'onmouseover="x"'];
    let seed = 7;
    const next = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed; };
    for (let n = 0; n < 400; n++) {
      let text = '';
      for (let k = next() % 30; k >= 0; k--) text += pieces[next() % pieces.length];
      const html = md.renderMarkdown(text);
      for (const m of html.matchAll(/<([a-zA-Z][a-zA-Z0-9-]*)([^>]*)>/g)) {
        assert.ok(allowed.has(m[1]!.toLowerCase()), `tag <${m[1]}> from ${JSON.stringify(text)}: ${html}`);
        assert.doesNotMatch(m[2]!, /\son[a-z]+\s*=/i, `event handler attribute from ${JSON.stringify(text)}: ${html}`);
        assert.doesNotMatch(m[2]!, /href="(?!https?:|mailto:|#")/i, `unsafe href from ${JSON.stringify(text)}: ${html}`);
      }
    }
  });
});
