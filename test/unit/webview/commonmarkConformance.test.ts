import assert from 'node:assert/strict';
import { loadWebviewModule } from './loadWebviewModule';

type Core = typeof import('../../../webview-ui/src/markdown/markdown');
interface SpecExample { markdown: string; html: string; section: string; number: number }

/**
 * The chat's Markdown renderer against the CommonMark spec's own examples (the pinned devDependency
 * commonmark-spec@0.31.2): every example in scope is rendered and compared with the spec's HTML after
 * the normalisation below, and the examples that fail are listed, so a regression fails here.
 *
 * The renderer is driven with the spec's own output for links, images and code (`specParts`), not
 * with the chat's (which drops unsafe targets and shows images as links): this checks how Markdown is
 * read, which is the renderer's job; what the chat then does with a link is renderMarkdown.ts's.
 */

/** Sections left out whole, and why. */
const SECTIONS_OUT: Record<string, string> = {
  'HTML blocks': 'raw HTML is shown as text, by design: model output is untrusted',
  'Raw HTML': 'raw HTML is shown as text, by design: model output is untrusted',
  'Link reference definitions': 'reference-style links are not read: models write inline links, and a definition anywhere would need a pass over the whole answer before its first link',
};

/** Examples of other sections left out, by what they rely on. */
const EXAMPLE_RULES_OUT: { why: string; applies(e: SpecExample): boolean }[] = [
  {
    why: 'defines a link reference (see "Link reference definitions")',
    applies: (e) => /^ {0,3}(?:> ?)*\[[^\]]+\]:/m.test(e.markdown),
  },
  {
    why: 'expects raw HTML passed through (see "Raw HTML"): a tag or comment written in the Markdown is a tag in the spec\'s output',
    applies: (e) => e.markdown.includes('<!--') && e.html.includes('<!--')
      || [...e.markdown.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9-]*)(?=[\s>/])/g)].some((m) => e.html.includes(`<${m[1]}`) || e.html.includes(`</${m[1]}`)),
  },
  {
    // 606: `<foo\+@bar.example.com>`, 608: `< https://foo.bar >`, 611: `https://example.com`, 612: `foo@bar.example.com`.
    why: 'contradicts GitHub\'s autolinks of bare URLs and email addresses, which the chat keeps on purpose',
    applies: (e) => [606, 608, 611, 612].includes(e.number),
  },
];

/**
 * In-scope examples the renderer fails today, each with why it is left. A fix takes its number out;
 * a regression adds one, and fails the test until it is fixed (or the list is changed on purpose).
 */
const KNOWN_FAILING: Record<number, string> = {
  // The renderer decodes only the common named references in a link target or info string (the
  // browser decodes the rest in text); the whole table is ~2,000 names.
  32: 'named reference &ouml; in a link target and title', 34: 'named reference &ouml; in an info string',
  503: 'named reference &auml; in a link target',
  // An autolink binds tighter than a link's brackets; the renderer reads the link first.
  526: 'an autolink in a link\'s text, closing after the link',
  // An image's alt text is its label's plain text: the renderer hands the label on as written.
  520: 'links inside an image\'s text', 574: 'an image inside an image\'s text', 575: 'a link inside an image\'s text',
}

/** The number of in-scope examples that must pass: raised as fixes land, never lowered. */
const FLOOR = 478;

/** The named references the spec's examples use (a browser knows them all; the renderer passes them through as written). */
const NAMED: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', nbsp: '\u00a0', copy: '©', ouml: 'ö', auml: 'ä', AElig: 'Æ', Dcaron: 'Ď',
  frac34: '¾', HilbertSpace: 'ℋ', DifferentialD: 'ⅆ', ClockwiseContourIntegral: '∲', ngE: '≧̸',
};

function decodeReferences(s: string): string {
  return s.replace(/&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([a-zA-Z][a-zA-Z0-9]*));/g, (all, dec?: string, hex?: string, name?: string) => {
    if (name !== undefined) return NAMED[name] ?? all;
    const code = dec !== undefined ? parseInt(dec, 10) : parseInt(hex!, 16);
    return code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff) ? '\ufffd' : String.fromCodePoint(code);
  });
}

const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const BLOCK_TAG = /\s*(<\/?(?:p|li|ul|ol|blockquote|h[1-6]|hr|pre|table|thead|tbody|tr|th|td)\b[^>]*>)\s*/g;

/**
 * HTML as a browser shows it, written one way: references decoded (then only `& < > "` escaped),
 * `<br />` as `<br>`, whitespace outside <pre> collapsed and dropped around block tags — the
 * differences the spec's own test runner also ignores.
 */
function normalize(html: string): string {
  let inPre = 0;
  let out = '';
  for (const [piece] of html.matchAll(/<[^>]*>|[^<]+/g)) {
    if (piece.startsWith('<')) {
      if (/^<pre\b/.test(piece)) inPre++;
      if (piece.startsWith('</pre')) inPre--;
      out += piece.replace(/\s*\/>$/, '>').replace(/="([^"]*)"/g, (_, v: string) => `="${escapeText(decodeReferences(v))}"`);
    } else {
      const text = escapeText(decodeReferences(piece));
      out += inPre ? text : text.replace(/\s+/g, ' ');
    }
  }
  return out.replace(BLOCK_TAG, '$1').trim();
}

/** A link target as the spec's reference renderer writes it: percent-encoded, existing %XX kept. */
const encodeTarget = (href: string) => href.replace(/%(?![0-9a-fA-F]{2})|[^A-Za-z0-9;/?:@&=+$,\-_.!~*'()#%]/gu, (c) => encodeURIComponent(c));

function specParts(core: Core): import('../../../webview-ui/src/markdown/markdown').MarkdownParts {
  let renderer: InstanceType<Core['MarkdownRenderer']> | undefined;
  const esc = core.escapeHtml;
  const parts = {
    link: (href: string, title: string | undefined, inner: string) => `<a href="${esc(encodeTarget(href))}"${title ? ` title="${esc(title)}"` : ''}>${inner}</a>`,
    // An image's alt text is its label's plain text.
    image: (href: string, alt: string, _inLink: boolean, title?: string) =>
      `<img src="${esc(encodeTarget(href))}" alt="${renderer!.inline(alt, true).replace(/<[^>]*>/g, '')}"${title ? ` title="${esc(title)}"` : ''} />`,
    codespan: (text: string) => `<code>${esc(text)}</code>`,
    code: (text: string, lang: string) => `<pre><code${lang ? ` class="language-${esc(lang)}"` : ''}>${esc(text)}${text ? '\n' : ''}</code></pre>\n`,
  };
  renderer = new core.MarkdownRenderer(parts);
  return parts;
}

describe('webview markdown: CommonMark 0.31.2 conformance of the examples in scope', () => {
  let core: Core;
  let examples: SpecExample[];
  before(async () => {
    core = await loadWebviewModule<Core>('webview-ui/src/markdown/markdown.ts');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    examples = (require('commonmark-spec') as { tests: SpecExample[] }).tests;
  });

  const inScope = (e: SpecExample) => !(e.section in SECTIONS_OUT) && !EXAMPLE_RULES_OUT.some((r) => r.applies(e));

  it('scope: 652 examples, of which 485 in scope (the sections and rules above)', () => {
    assert.equal(examples.length, 652);
    assert.equal(examples.filter(inScope).length, 485);
  });

  it(`at least ${FLOOR} in-scope examples render as the spec says, and only the known ones fail`, () => {
    const renderer = new core.MarkdownRenderer(specParts(core));
    const failing: number[] = [];
    const diffs: string[] = [];
    let passing = 0;
    for (const e of examples.filter(inScope)) {
      // The spec writes tabs as → in its examples.
      const expected = normalize(e.html.replace(/→/g, '\t'));
      const got = normalize(renderer.render(e.markdown.replace(/→/g, '\t')));
      if (got === expected) { passing++; continue; }
      failing.push(e.number);
      if (!(e.number in KNOWN_FAILING)) diffs.push(`#${e.number} (${e.section}) ${JSON.stringify(e.markdown)}\n  expected ${expected}\n  got      ${got}`);
    }
    const known = Object.keys(KNOWN_FAILING).map(Number);
    const fixed = known.filter((n) => !failing.includes(n));
    assert.deepEqual(diffs, [], `in-scope examples that fail and are not in KNOWN_FAILING (a regression?):\n${diffs.join('\n')}`);
    assert.deepEqual(fixed, [], `examples that pass now: take them out of KNOWN_FAILING and raise FLOOR to ${passing}`);
    assert.ok(passing >= FLOOR, `${passing} pass, floor ${FLOOR}`);
  });
});
