/**
 * Model text → HTML that is safe to put in the DOM. Model output is untrusted: raw HTML is shown
 * as text (escaped), links keep only http(s)/mailto targets, images become links (a remote image
 * would be a tracking beacon, and the CSP blocks it anyway). Everything else is escaped by the
 * renderer itself (markdown.ts). Code blocks get a Copy button that the card handles by delegation.
 */
import { isAnswerPath } from '../mentions/answerPaths';
import { escapeHtml, MarkdownRenderer, MAX_TEXT } from './markdown';

export { escapeHtml };

/** The only link targets allowed through; anything else (javascript:, data:, vscode:, relative) is dropped. */
export function safeHref(href: string | null | undefined): string | null {
  if (!href) return null;
  // A control character anywhere is refused: the browser drops it from the scheme, so
  // "h\u0001ttp://x" would pass the check below as written yet resolve as a relative link here.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f]/.test(href)) return null;
  const compact = href.replace(/ /g, '').toLowerCase();
  if (/^(https?:\/\/|mailto:)/.test(compact) && !/[<>"'`]/.test(href)) return href.trim();
  return null;
}

const markdown = new MarkdownRenderer({
  link(target, title, inner) {
    const href = safeHref(target);
    if (!href) return inner;
    return `<a href="${escapeHtml(href)}"${title ? ` title="${escapeHtml(title)}"` : ''}>${inner}</a>`;
  },
  // Inside a link's text (a badge) an image is its label only: the link around it is its anchor.
  image(target, alt, inLink) {
    const label = escapeHtml(alt || target || 'image');
    const href = inLink ? null : safeHref(target);
    return href ? `<a href="${escapeHtml(href)}">[image: ${label}]</a>` : `[image: ${label}]`;
  },
  // A workspace path in inline code (`src/cart.ts:12`) links to the editor (see mentions/pathLinks.ts),
  // except inside a link's text, where a second anchor would nest in the first.
  codespan(text, inLink) {
    const code = `<code>${escapeHtml(text)}</code>`;
    return !inLink && isAnswerPath(text) ? `<a href="#" class="path-link" data-path="${escapeHtml(text)}" title="Open in the editor">${code}</a>` : code;
  },
  code(text, lang) {
    return (
      `<div class="code-block"><div class="code-head"><span class="code-lang">${escapeHtml(lang)}</span>` +
      `<button type="button" class="code-copy" data-copy="1">Copy</button></div>` +
      `<pre><code>${escapeHtml(text)}</code></pre></div>`
    );
  },
});

/** Markdown → safe HTML. Never throws: on a parser error the text is shown escaped. */
export function renderMarkdown(text: string): string {
  try {
    return markdown.render(text);
  } catch {
    return `<p>${escapeHtml(text)}</p>`;
  }
}

/** A small cache: virtualised rows re-mount when scrolled back into view; finished text never changes. */
const cache = new Map<string, string>();
const CACHE_MAX = 400;

export function renderMarkdownCached(text: string): string {
  const hit = cache.get(text);
  if (hit !== undefined) return hit;
  const html = renderMarkdown(text);
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value as string);
  cache.set(text, html);
  return html;
}

/**
 * Where a streaming text can be cut so that everything before the cut is finished markdown: the
 * last blank line that is not inside a fenced code block. Returns 0 when there is none.
 */
export function stableBlockBoundary(text: string): number {
  let fence: string | null = null;
  let boundary = 0;
  let lineStart = 0;
  let prevBlank = false;
  while (lineStart <= text.length) {
    let end = text.indexOf('\n', lineStart);
    if (end < 0) end = text.length;
    const line = text.slice(lineStart, end);
    const m = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    const blank = line.trim() === '';
    // A blank line followed by a non-indented line, outside a fence: the text before it is settled.
    if (fence === null && prevBlank && !blank && !/^\s/.test(line) && end < text.length) boundary = lineStart;
    if (m) {
      const marker = m[1]!;
      if (fence === null) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = null;
    }
    prevBlank = blank && fence === null;
    if (end === text.length) break;
    lineStart = end + 1;
  }
  return boundary;
}

const streamHeads = new Map<string, string>();

/**
 * Markdown for text that is still growing: the settled head is rendered once and reused, only the
 * tail is parsed again each frame, so a long answer costs the same per token at 50 KB as at 1 KB.
 * When streaming ends the card switches to a full render of the whole text.
 */
export function renderStreamingMarkdown(text: string): string {
  // Past MAX_TEXT the whole text is shown escaped; a head rendered as Markdown would disagree with it.
  if (text.length > MAX_TEXT) return renderMarkdown(text);
  const cut = stableBlockBoundary(text);
  if (cut === 0) return renderMarkdown(text);
  const head = text.slice(0, cut);
  let headHtml = streamHeads.get(head);
  if (headHtml === undefined) {
    headHtml = renderMarkdown(head);
    if (streamHeads.size >= 8) streamHeads.delete(streamHeads.keys().next().value as string);
    streamHeads.set(head, headHtml);
  }
  return headHtml + renderMarkdown(text.slice(cut));
}
