/**
 * A small Markdown → HTML renderer for model text: CommonMark's blocks (paragraphs, ATX and setext
 * headings, fenced and indented code, block quotes, nested lists, thematic breaks) and GitHub's
 * tables, task items, strikethrough and bare-URL links, with CommonMark's rules for emphasis.
 * What it leaves out is rare in model answers and reads fine as text: reference-style links,
 * footnotes, raw HTML (always shown as text).
 *
 * Why not a library: marked was a quarter of the webview's weight (38.8 KB minified, ~12 KB
 * gzipped, of a 55 KB budget); the small ones that are kept up either pass raw HTML through or
 * build the DOM themselves, and the chat needs safe HTML strings it can cache and stream.
 *
 * Linear by construction: a chat frame re-renders the streaming tail, so no path may cost more than
 * linear time in what the model writes. No regular expression here has two quantifiers that can
 * split the same run (they backtrack quadratically); bare URLs are trimmed in one pass and capped;
 * link tails are read by hand; bracket pairs and backtick runs are found once per paragraph;
 * emphasis keeps CommonMark's openers-bottom so a closer never scans the same openers twice;
 * nesting stops at MAX_DEPTH, tables at MAX_TABLE_CELLS, and a text past MAX_TEXT is shown escaped.
 *
 * Safety by construction: every character of the input reaches the output through `escapeHtml`
 * (or as a valid entity reference, which only ever shows a character), and the only tags are the
 * ones written below. Link targets go through `safeHref`; the caller decides what a link, an
 * image, inline code and a code block look like (`MarkdownParts`).
 */

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '&#39;'));
}

export interface MarkdownParts {
  /** `inner` is rendered HTML; `href` as written (unchecked), `title` unescaped. */
  link(href: string, title: string | undefined, inner: string): string;
  /** `alt` and `href` as written, `title` unescaped; `inLink`: inside a link's text (no anchor of its own there). */
  image(href: string, alt: string, inLink: boolean, title?: string): string;
  /** The code's text as written (unescaped); `inLink`: inside a link's text. */
  codespan(text: string, inLink: boolean): string;
  /** A code block's text (unescaped) and the first word of its info string. */
  code(text: string, lang: string): string;
}

const BLANK = /^[ \t]*$/;
const FENCE = /^( {0,3})(`{3,}|~{3,})(.*)$/;
const HEADING = /^ {0,3}(#{1,6})(?=[ \t]|$)(.*)$/;
const QUOTE = /^ {0,3}> ?/;
const ITEM = /^( {0,3})([-*+]|\d{1,9}[.)])(?:([ \t]+)(.*))?$/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
/** A table's delimiter cell once trimmed: `---`, `:--`, `--:`, `:-:`. */
const DELIM_CELL = /^:?-+:?$/;
// Inline patterns, matched in place (sticky) so a long paragraph is never copied once per character.
const TICKS = /`+/y;
const AUTOLINK = /<([a-zA-Z][a-zA-Z0-9+.-]{1,31}:[^\s<>]*|[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*)>/y;
/** A bare URL's run, one character past the cap (so an over-long one is told apart) … */
const BARE_URL = /(?:https?:\/\/|www\.)[^\s<]{0,2049}/iy;
/** … and the rest of an over-long run, taken as text in one piece so it is never scanned again. */
const URL_RUN_REST = /[^\s<]*/y;
/** Longest bare URL made a link (a real one is rarely past 2 KB; a longer run is text). */
const MAX_URL = 2048;
const EMAIL_DOMAIN = /@[a-zA-Z0-9_-]+(?:\.[a-zA-Z0-9_-]+)+/y;
const ENTITY = /&(?:#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z][a-zA-Z0-9]{1,31});/y;
/** Characters that may start something inline; a run of any others is taken in one piece. */
const SPECIAL = new Uint8Array(128);
for (const c of '\\`[!<&@\n*_~hw') SPECIAL[c.charCodeAt(0)] = 1;

/** The end of the run of plain characters from `i` (`i` itself when `src[i]` may start something). */
function plainEnd(src: string, i: number): number {
  let j = i;
  for (let code = src.charCodeAt(j); j < src.length && (code >= 128 || SPECIAL[code] === 0); code = src.charCodeAt(++j));
  return j;
}

/** Whitespace for emphasis (the text's ends count as whitespace). ASCII first: most text is. */
function isSpace(c: string | undefined): boolean {
  if (c === undefined) return true;
  const code = c.charCodeAt(0);
  return code < 128 ? code === 32 || (code >= 9 && code <= 13) : /\s/.test(c);
}

/** Punctuation or a symbol for emphasis. ASCII first. */
function isPunct(c: string | undefined): boolean {
  if (c === undefined) return false;
  const code = c.charCodeAt(0);
  if (code < 128) return (code >= 33 && code <= 47) || (code >= 58 && code <= 64) || (code >= 91 && code <= 96) || (code >= 123 && code <= 126);
  return /[\p{P}\p{S}]/u.test(c);
}
/** Deepest list or block-quote nesting rendered as such; deeper text shows as a paragraph. */
export const MAX_DEPTH = 100;
/** Most cells in one table (rows × columns); the rows past it are shown as text. */
export const MAX_TABLE_CELLS = 20_000;
/** Longest text rendered as Markdown; a longer one (a pasted log) is shown escaped, as code. */
export const MAX_TEXT = 200 * 1024;
/** Trailing characters GitHub's autolinks leave out of a bare URL. */
const URL_TRAILING = new Set(['?', '!', '.', ',', ':', '*', '_', '~', "'", '"']);

/** `re` (sticky) matched at `i` of `src`, or null. */
function matchAt(re: RegExp, src: string, i: number): RegExpExecArray | null {
  re.lastIndex = i;
  return re.exec(src);
}

/** A thematic break (`---`, `* * *`, `___`), read by hand: the pattern as a regex backtracks over every `- ` of a nested list item. */
function isRule(line: string): boolean {
  let i = 0;
  while (i < 3 && line[i] === ' ') i++;
  const ch = line[i];
  if (ch !== '-' && ch !== '*' && ch !== '_') return false;
  // Its last mark first: a nested list item's line (`- - - x`) is refused without reading it all.
  let last = line.length - 1;
  while (last > i && (line[last] === ' ' || line[last] === '\t')) last--;
  if (line[last] !== ch) return false;
  let n = 0;
  for (; i < line.length; i++) {
    const c = line[i];
    if (c === ch) n++;
    else if (c !== ' ' && c !== '\t') return false;
  }
  return n >= 3;
}

/** Width of a line's leading whitespace (a tab counts to the next multiple of 4). */
function indentOf(line: string): number {
  let n = 0;
  for (const c of line) {
    if (c === ' ') n++;
    else if (c === '\t') n += 4 - (n % 4);
    else break;
  }
  return n;
}

/**
 * The line without its first `n` columns of indentation; `from`: the column the line starts at in
 * the text (after a list marker or a `>`). Tabs count to the next multiple of 4 where they stand:
 * the part of a tab left over is spaces, and when the cut is not on a tab stop the rest of the
 * indentation is spaces too, so what is nested keeps its width (`- foo` then `\t\tbar` is code
 * indented by two). A fenced block's own text keeps its tabs (`expand` false).
 */
function unindent(line: string, n: number, from = 0, expand = true): string {
  const stop = from + n;
  let col = from;
  let i = 0;
  while (i < line.length && col < stop && (line[i] === ' ' || line[i] === '\t')) {
    col += line[i] === '\t' ? 4 - (col % 4) : 1;
    i++;
  }
  let lead = ' '.repeat(Math.max(0, col - stop));
  if (expand && stop % 4 !== 0) {
    for (; line[i] === ' ' || line[i] === '\t'; i++) {
      const width = line[i] === '\t' ? 4 - (col % 4) : 1;
      lead += ' '.repeat(width);
      col += width;
    }
  }
  return lead + line.slice(i);
}

/** A block-quote line's content: after the `>` and the one blank that may follow it (a tab's rest stays as spaces). */
function quoteContent(line: string): string {
  const gt = line.indexOf('>');
  const rest = line.slice(gt + 1);
  return unindent(rest, rest[0] === ' ' || rest[0] === '\t' ? 1 : 0, gt + 1);
}

/**
 * A lazy continuation line as paragraph text only: CommonMark lets no lazy line be a setext
 * underline, so one that looks like it (`> foo` then `bar` then `===`) gets its first mark escaped.
 */
function lazyLine(line: string): string {
  return SETEXT.test(line) ? line.replace(/^[ \t]*/, '$&\\') : line;
}

/** Cells of a table row: split on unescaped pipes, the outer ones dropped. */
function cells(line: string): string[] {
  let s = line.trim();
  if (s.startsWith('|')) s = s.slice(1);
  if (s.endsWith('|') && !s.endsWith('\\|')) s = s.slice(0, -1);
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '\\' && s[i + 1] === '|') { cur += '|'; i++; }
    else if (s[i] === '|') { out.push(cur.trim()); cur = ''; }
    else cur += s[i];
  }
  out.push(cur.trim());
  return out;
}

/** Whether `line` is a table's delimiter row (`| :-- | --: |`), read cell by cell. */
function isTableDelim(line: string): boolean {
  if (indentOf(line) > 3 || !line.includes('-')) return false;
  return cells(line).every((c) => DELIM_CELL.test(c));
}

/** `s` without its trailing spaces and tabs (by hand: `/[ \t]+$/` retries every start of a long run). */
function trimEndBlanks(s: string): string {
  let end = s.length;
  while (end > 0 && (s[end - 1] === ' ' || s[end - 1] === '\t')) end--;
  return end === s.length ? s : s.slice(0, end);
}

/** An ATX heading's text without its closing `#`s (a `#` run preceded by a blank or the start). */
function headingText(s: string): string {
  let end = trimEndBlanks(s).length;
  let h = end;
  while (h > 0 && s[h - 1] === '#') h--;
  if (h < end && (h === 0 || s[h - 1] === ' ' || s[h - 1] === '\t')) end = h;
  return s.slice(0, end).trim();
}

/** A bare URL without what GitHub leaves out: trailing punctuation, and `)`s that close nothing. One pass. */
function trimBareUrl(u: string): string {
  let opens = 0;
  let closes = 0;
  for (let k = 0; k < u.length; k++) {
    if (u[k] === '(') opens++;
    else if (u[k] === ')') closes++;
  }
  let end = u.length;
  while (end > 0) {
    const ch = u[end - 1]!;
    if (URL_TRAILING.has(ch)) end--;
    else if (ch === ')' && closes > opens) { closes--; end--; }
    else break;
  }
  return u.slice(0, end);
}

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** A link target or title as written → its text: backslash escapes and entity references resolved. */
function linkText(s: string): string {
  return s.replace(/\\([!-/:-@[-`{-~])|&(#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z][a-zA-Z0-9]{1,31});/g, (all, esc: string | undefined, ent: string | undefined) => {
    if (esc) return esc;
    if (ent![0] !== '#') return NAMED_ENTITIES[ent!] ?? all;
    const code = ent![1] === 'x' || ent![1] === 'X' ? parseInt(ent!.slice(2), 16) : parseInt(ent!.slice(1), 10);
    return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : '\ufffd';
  });
}

/** Spaces, tabs and line feeds from `i` on: the index after them. */
function skipLinkSpace(src: string, i: number): number {
  while (src[i] === ' ' || src[i] === '\t' || src[i] === '\n') i++;
  return i;
}

/**
 * A link's tail `(dest "title")` at `p` (the `(`), read by hand so that no run of blanks can be split
 * two ways: the target and title as written, and the index after the `)`; null when it is none.
 * Parentheses in a bare target nest up to 32 deep, as CommonMark lets an implementation limit.
 */
function linkTail(src: string, p: number): { href: string; title?: string; end: number } | null {
  let i = skipLinkSpace(src, p + 1);
  let href: string;
  if (src[i] === '<') {
    let j = i + 1;
    for (; j < src.length; j++) {
      const c = src[j];
      if (c === '\\') { j++; continue; }
      if (c === '>' || c === '<' || c === '\n') break;
    }
    if (src[j] !== '>') return null;
    href = src.slice(i + 1, j);
    i = j + 1;
  } else {
    let depth = 0;
    let j = i;
    for (; j < src.length; j++) {
      const c = src[j]!;
      if (c === '\\' && j + 1 < src.length && /[!-/:-@[-`{-~]/.test(src[j + 1]!)) { j++; continue; }
      if (c === '(') { if (++depth > 32) return null; continue; }
      if (c === ')') { if (depth === 0) break; depth--; continue; }
      if (c <= ' ' || c === '\u007f') break;
    }
    if (depth !== 0) return null;
    href = src.slice(i, j);
    i = j;
  }
  const afterTarget = i;
  i = skipLinkSpace(src, i);
  let title: string | undefined;
  const q = src[i];
  if (i > afterTarget && (q === '"' || q === "'" || q === '(')) {
    const close = q === '(' ? ')' : q;
    let j = i + 1;
    for (; j < src.length; j++) {
      const c = src[j];
      if (c === '\\') { j++; continue; }
      if (c === close) break;
      if (q === '(' && c === '(') return null;
    }
    if (j >= src.length) return null;
    title = src.slice(i + 1, j);
    i = skipLinkSpace(src, j + 1);
  }
  if (src[i] !== ')') return null;
  return { href, title, end: i + 1 };
}

/** A run of `*`, `_` or `~` in inline text: how many are left unpaired, and the tags paired on each side. */
interface Delim { ch: string; n: number; open: boolean; close: boolean; pre: string; post: string }

/** An ordered or bullet item's marker as matched by ITEM, and where its content starts. */
interface ItemStart { indent: number; marker: string; ordered: boolean; content: string; contentIndent: number }

function itemStart(line: string): ItemStart | null {
  const m = ITEM.exec(line);
  if (!m || isRule(line)) return null;
  const indent = m[1]!.length;
  const marker = m[2]!;
  const spaces = m[3] ?? '';
  const rest = m[4] ?? '';
  const after = indent + marker.length;
  // The blank's width where it stands (a tab after `-` is 3 columns wide, not 4).
  const width = indentOf(' '.repeat(after) + spaces) - after;
  // An item starting with a blank line, or with five or more blanks (its content is indented
  // code): the content starts one column after the marker.
  const pad = rest === '' || width > 4 ? 1 : width;
  const content = rest === '' ? '' : width > 4 ? unindent(spaces + rest, 1, after) : rest;
  return { indent, marker, ordered: /\d/.test(marker), content, contentIndent: after + pad };
}

function sameList(a: ItemStart, b: ItemStart): boolean {
  return a.ordered === b.ordered && a.marker.slice(-1) === b.marker.slice(-1);
}

/** A rendered block, or a paragraph's inline HTML (shown with or without <p> by the list it is in). */
type Block = string | { paragraph: string };

/** Blocks as HTML; `tight`: paragraphs without <p> (a tight list's items). */
function joinBlocks(blocks: Block[], tight: boolean): string {
  let out = '';
  for (const b of blocks) out += typeof b === 'string' ? b : tight ? b.paragraph : `<p>${b.paragraph}</p>\n`;
  return out;
}

export class MarkdownRenderer {
  constructor(private readonly parts: MarkdownParts) {}

  render(src: string): string {
    // Past this size a text is a pasted log or a runaway answer: shown as it is, at once.
    if (src.length > MAX_TEXT) return this.parts.code(src, '');
    const lines = src.replace(/\r\n?/g, '\n').split('\n');
    // The line break that ends the text starts no line (an unclosed fence would show it as one).
    if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
    return this.blocks(lines, false, 0);
  }

  /** Whether `line` starts a block that ends a paragraph before it. */
  private interrupts(line: string, next: string | undefined): boolean {
    // Most lines of a paragraph start with a letter: only these characters can start a block.
    const first = line.trimStart()[0];
    if (first === undefined || (!'`~#-*_>+0123456789'.includes(first) && !line.includes('|'))) return false;
    if (FENCE.test(line) || HEADING.test(line) || isRule(line) || QUOTE.test(line)) return true;
    const item = itemStart(line);
    if (item && item.content.trim() !== '' && (!item.ordered || /^0*1\D/.test(item.marker + ' '))) return true;
    return next !== undefined && line.includes('|') && isTableDelim(next) && cells(line).length === cells(next).length;
  }

  /** Renders lines as blocks; `tight`: paragraphs without <p> (a tight list's items); `depth`: lists and quotes around. */
  private blocks(lines: string[], tight: boolean, depth: number): string {
    return joinBlocks(this.blockList(lines, depth).blocks, tight);
  }

  /**
   * Lines → their blocks, each paragraph kept apart (a list shows it with or without <p> once it
   * knows whether it is loose), and whether a blank line stands between two of the blocks.
   */
  private blockList(lines: string[], depth: number): { blocks: Block[]; gap: boolean } {
    // Deeper than any real answer nests: the rest is text (no stack to overflow, no cost per level).
    if (depth > MAX_DEPTH) return { blocks: [`<p>${escapeHtml(lines.join('\n'))}</p>\n`], gap: false };
    const out: Block[] = [];
    let gap = false;
    let blank = false;
    let i = 0;
    while (i < lines.length) {
      const line = lines[i]!;
      if (BLANK.test(line)) { blank = out.length > 0; i++; continue; }
      // Blank lines consumed inside a block (a fence, a nested list's item) are not seen here: only
      // the ones between this text's own blocks make a list loose.
      if (blank) { gap = true; blank = false; }
      let m: RegExpExecArray | null;
      if ((m = FENCE.exec(line)) && !(m[2]![0] === '`' && m[3]!.includes('`'))) {
        const indent = m[1]!.length;
        const fence = m[2]!;
        const body: string[] = [];
        i++;
        while (i < lines.length) {
          const l = lines[i]!;
          const close = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(l);
          if (close && close[1]![0] === fence[0] && close[1]!.length >= fence.length) { i++; break; }
          body.push(unindent(l, indent, 0, false));
          i++;
        }
        out.push(this.parts.code(body.join('\n'), linkText(m[3]!.trim().split(/\s+/)[0] ?? '')));
        continue;
      }
      if (indentOf(line) >= 4) {
        const body: string[] = [];
        while (i < lines.length && (indentOf(lines[i]!) >= 4 || BLANK.test(lines[i]!))) body.push(unindent(lines[i++]!, 4));
        // Blank lines after the code are not its own: they stay for what follows to see.
        while (body.length && BLANK.test(body[body.length - 1]!)) { body.pop(); i--; }
        out.push(this.parts.code(body.join('\n'), ''));
        continue;
      }
      if ((m = HEADING.exec(line))) {
        const level = m[1]!.length;
        const text = headingText(m[2]!);
        out.push(`<h${level}>${this.inline(text)}</h${level}>\n`);
        i++;
        continue;
      }
      if (isRule(line)) { out.push('<hr>\n'); i++; continue; }
      if (QUOTE.test(line)) {
        const inner: string[] = [];
        let lazyOk = false;
        while (i < lines.length) {
          const l = lines[i]!;
          if (QUOTE.test(l)) {
            const stripped = quoteContent(l);
            inner.push(stripped);
            // Only a paragraph's text goes on lazily: not a fence's, a code block's or a heading's.
            lazyOk = !BLANK.test(stripped) && !FENCE.test(stripped) && indentOf(stripped) < 4 && !HEADING.test(stripped) && !isRule(stripped);
          } else if (lazyOk && !BLANK.test(l) && !this.interrupts(l, lines[i + 1])) {
            inner.push(lazyLine(l));
          } else break;
          i++;
        }
        out.push(`<blockquote>\n${this.blocks(inner, false, depth + 1)}</blockquote>\n`);
        continue;
      }
      const first = itemStart(line);
      if (first) { i = this.list(lines, i, first, depth, (html) => { out.push(html); }); continue; }
      if (line.includes('|') && i + 1 < lines.length && isTableDelim(lines[i + 1]!)) {
        const head = cells(line);
        const aligns = cells(lines[i + 1]!).map((c) => (c.startsWith(':') ? (c.endsWith(':') ? 'center' : 'left') : c.endsWith(':') ? 'right' : ''));
        // A row is padded to the header's width, so the cells are capped: rows × columns.
        if (head.length === aligns.length && head.length * 2 <= MAX_TABLE_CELLS) {
          const cell = (tag: string, text: string, k: number) => `<${tag}${aligns[k] ? ` align="${aligns[k]}"` : ''}>${this.inline(text)}</${tag}>`;
          let table = `<table>\n<thead>\n<tr>${head.map((c, k) => cell('th', c, k)).join('')}</tr>\n</thead>\n`;
          i += 2;
          let body = '';
          let rows = 1;
          while (i < lines.length && !BLANK.test(lines[i]!) && !this.interrupts(lines[i]!, undefined) && ++rows * head.length <= MAX_TABLE_CELLS) {
            const row = cells(lines[i]!);
            body += `<tr>${aligns.map((_, k) => cell('td', row[k] ?? '', k)).join('')}</tr>\n`;
            i++;
          }
          out.push(`${table}${body ? `<tbody>\n${body}</tbody>\n` : ''}</table>\n`);
          continue;
        }
      }
      // A paragraph: up to a blank line or a block that interrupts it; a setext underline makes it a heading.
      const para: string[] = [line];
      i++;
      let heading = 0;
      while (i < lines.length && !BLANK.test(lines[i]!)) {
        const l = lines[i]!;
        const u = SETEXT.exec(l);
        if (u) { heading = u[1]![0] === '=' ? 1 : 2; i++; break; }
        if (this.interrupts(l, lines[i + 1])) break;
        para.push(l);
        i++;
      }
      const text = trimEndBlanks(para.map((l) => l.replace(/^[ \t]+/, '')).join('\n'));
      out.push(heading ? `<h${heading}>${this.inline(text)}</h${heading}>\n` : { paragraph: this.inline(text) });
    }
    return { blocks: out, gap };
  }

  /** A list starting at `lines[i]`; returns the index after it. */
  private list(lines: string[], i: number, first: ItemStart, depth: number, emit: (html: string) => void): number {
    const items: { task: string; blocks: Block[] }[] = [];
    let loose = false;
    let start: ItemStart | null = first;
    while (start && sameList(first, start)) {
      const body = [start.content];
      const ci = start.contentIndent;
      i++;
      let blankBefore = false;
      while (i < lines.length) {
        const l = lines[i]!;
        if (BLANK.test(l)) {
          // An item may start with one blank line, not two: `-` then a blank line is an empty item.
          if (body.length === 1 && body[0] === '') break;
          body.push(''); blankBefore = true; i++; continue;
        }
        if (indentOf(l) >= ci) { body.push(unindent(l, ci)); blankBefore = false; i++; continue; }
        // A lazy continuation of the item's paragraph.
        if (!blankBefore && !BLANK.test(body[body.length - 1]!) && !itemStart(l) && !this.interrupts(l, lines[i + 1])) { body.push(lazyLine(l)); i++; continue; }
        break;
      }
      // Blank lines at the end of an item belong to the gap before whatever follows.
      let trailing = 0;
      while (body.length > 1 && BLANK.test(body[body.length - 1]!)) { body.pop(); trailing++; }
      // (An empty item stopped at its second blank line: the list may go on after them.)
      while (i < lines.length && BLANK.test(lines[i]!)) { i++; trailing++; }
      let task = '';
      const t = /^\[([ xX])\][ \t]+/.exec(body[0]!);
      if (t) {
        task = `<input ${t[1] === ' ' ? '' : 'checked="" '}disabled="" type="checkbox"> `;
        body[0] = body[0]!.slice(t[0].length);
      }
      // A list is loose when a blank line separates two of its items or two blocks of one item;
      // one inside a nested list's item or inside a fence leaves this list tight.
      const parsed = this.blockList(body, depth + 1);
      if (parsed.gap) loose = true;
      items.push({ task, blocks: parsed.blocks });
      start = i < lines.length ? itemStart(lines[i]!) : null;
      if (start && sameList(first, start)) { if (trailing > 0) loose = true; }
      // The list ends here: its last blank lines go back to the text around, where they separate
      // the list from what follows (and make an item holding this list loose).
      else i -= trailing;
    }
    const num = parseInt(first.marker, 10);
    const open = first.ordered ? `<ol${num !== 1 ? ` start="${num}"` : ''}>` : '<ul>';
    let html = `${open}\n`;
    for (const { task, blocks } of items) {
      const inner = joinBlocks(blocks, !loose);
      html += `<li>${task}${inner.endsWith('\n') ? inner.slice(0, -1) : inner}</li>\n`;
    }
    emit(`${html}${first.ordered ? '</ol>' : '</ul>'}\n`);
    return i;
  }

  /** Inline markdown → HTML; `inLink`: no links inside (a link's own text). */
  inline(src: string, inLink = false): string {
    const out: (string | Delim)[] = [];
    let text = '';
    const flush = (): void => { if (text) { out.push(text); text = ''; } };
    const ticks = new TickRuns(src);
    const brackets = new BracketPairs(src, ticks);
    // The end of the last bare-URL run refused: a start inside it is not scanned again.
    let urlScanned = 0;
    let i = 0;
    while (i < src.length) {
      const plain = plainEnd(src, i);
      if (plain > i) { text += escapeHtml(src.slice(i, plain)); i = plain; continue; }
      const c = src[i]!;
      if (c === '\\' && i + 1 < src.length) {
        const d = src[i + 1]!;
        if (d === '\n') { text += '<br>\n'; i += 2; continue; }
        if (/[!-/:-@[-`{-~]/.test(d)) { text += escapeHtml(d); i += 2; continue; }
      }
      if (c === '`') {
        const run = matchAt(TICKS, src, i)![0];
        const end = ticks.closing(i + run.length, run.length);
        if (end >= 0) {
          let code = src.slice(i + run.length, end).replace(/\n/g, ' ');
          if (/^ .*[^ ].* $|^ [^ ] $/.test(code)) code = code.slice(1, -1);
          flush();
          out.push(this.parts.codespan(code, inLink));
          i = end + run.length;
          continue;
        }
        text += escapeHtml(run);
        i += run.length;
        continue;
      }
      // A link's text holds no link, but may hold an image (a badge: `[![CI](svg)](url)`).
      if ((c === '[' && !inLink) || (c === '!' && src[i + 1] === '[')) {
        const link = this.linkAt(src, c === '!' ? i + 1 : i, brackets, c === '!');
        if (link) {
          flush();
          out.push(c === '!' ? this.parts.image(link.href, link.label, inLink, link.title) : this.parts.link(link.href, link.title, this.inline(link.label, true)));
          i = link.end;
          continue;
        }
      }
      if (c === '<') {
        const auto = matchAt(AUTOLINK, src, i);
        if (auto && !inLink) {
          const target = auto[1]!;
          flush();
          out.push(this.parts.link(target.includes(':') ? target : `mailto:${target}`, undefined, escapeHtml(target)));
          i += auto[0].length;
          continue;
        }
      }
      if (!inLink && (c === 'h' || c === 'w') && i >= urlScanned && (i === 0 || /[\s(*_~]/.test(src[i - 1]!))) {
        const url = matchAt(BARE_URL, src, i);
        if (url) {
          if (url[0].length - url[0].indexOf(url[0][0] === 'w' || url[0][0] === 'W' ? '.' : '//') > MAX_URL) {
            // Too long to be a link: the whole run is text, taken in one piece.
            const rest = matchAt(URL_RUN_REST, src, i + url[0].length)![0];
            text += escapeHtml(url[0] + rest);
            i += url[0].length + rest.length;
            continue;
          }
          const u = trimBareUrl(url[0]);
          if (/^(?:https?:\/\/|www\.)[^.\s]+\.[^\s]/i.test(u) || /^https?:\/\/[^\s/]+/i.test(u)) {
            flush();
            out.push(this.parts.link(/^www\./i.test(u) ? `http://${u}` : u, undefined, escapeHtml(u)));
            i += u.length;
            continue;
          }
          urlScanned = i + url[0].length;
        }
      }
      if (c === '@' && !inLink) {
        // GitHub's bare email link: the local part is already in the text before the `@`.
        // Only the end of the text is looked at (a local part is at most 64 characters), so many `@` stay cheap.
        const local = /(?:^|[^a-zA-Z0-9._+-])([a-zA-Z0-9._+-]{1,64})$/.exec(text.slice(-66));
        const domain = matchAt(EMAIL_DOMAIN, src, i);
        if (local && domain && !/[-_]$/.test(domain[0])) {
          const address = local[1]! + domain[0];
          text = text.slice(0, -local[1]!.length);
          flush();
          out.push(this.parts.link(`mailto:${address}`, undefined, escapeHtml(address)));
          i += domain[0].length;
          continue;
        }
      }
      if (c === '&') {
        const ent = matchAt(ENTITY, src, i);
        if (ent) { text += ent[0]; i += ent[0].length; continue; }
      }
      if (c === '\n') {
        // Two spaces (or more) before a line break make a hard break. Counted back from the end:
        // a regex on the whole text buffer at every line would cost its length each time.
        let spaces = 0;
        while (spaces < text.length && text[text.length - 1 - spaces] === ' ') spaces++;
        if (spaces) text = text.slice(0, text.length - spaces);
        text += spaces >= 2 ? '<br>\n' : '\n';
        // Each line's text goes out as it ends, so the buffer looked at here stays one line long.
        flush();
        i++;
        while (src[i] === ' ') i++;
        continue;
      }
      if (c === '*' || c === '_' || c === '~') {
        let runEnd = i + 1;
        while (src[runEnd] === c) runEnd++;
        const run = src.slice(i, runEnd);
        const before = src[i - 1];
        const after = src[i + run.length];
        const left = !isSpace(after) && (!isPunct(after) || isSpace(before) || isPunct(before));
        const right = !isSpace(before) && (!isPunct(before) || isSpace(after) || isPunct(after));
        const open = c === '_' ? left && (!right || isPunct(before)) : left;
        const close = c === '_' ? right && (!left || isPunct(after)) : right;
        // A run that can neither open nor close (`snake_case`) is text: it stays in the text, where
        // an email address's local part is looked for (`support_team@example.com`).
        if ((!open && !close) || (c === '~' && run.length > 2)) { text += run; i += run.length; continue; }
        flush();
        out.push({ ch: c, n: run.length, open, close, pre: '', post: '' });
        i += run.length;
        continue;
      }
      text += c === '<' || c === '>' || c === '&' || c === '"' || c === "'" ? escapeHtml(c) : c;
      i++;
    }
    flush();
    this.emphasis(out);
    return out.map((t) => (typeof t === 'string' ? t : `${t.pre}${t.ch.repeat(t.n)}${t.post}`)).join('');
  }

  /**
   * CommonMark's "process emphasis": pairs delimiter runs into <em>, <strong> and GFM's <del>. The
   * runs that may still open wait on a stack; a pair drops the runs between its two ends (they
   * stay text), so each run is passed over a bounded number of times.
   */
  private emphasis(items: (string | Delim)[]): void {
    const openers: Delim[] = [];
    // CommonMark's openers_bottom: for each kind of closer, the openers below this index were tried
    // and none matched, so the next closer of that kind stops there instead of scanning them again.
    const bottom = new Map<string, number>();
    for (const closer of items) {
      if (typeof closer === 'string') continue;
      while (closer.close && closer.n > 0) {
        const kind = `${closer.ch}${closer.open ? 1 : 0}${closer.ch === '~' ? closer.n : closer.n % 3}`;
        const floor = bottom.get(kind) ?? 0;
        let j = openers.length - 1;
        for (; j >= floor; j--) {
          const o = openers[j]!;
          if (o.ch !== closer.ch) continue;
          if (closer.ch === '~' ? o.n === closer.n : !((o.close || closer.open) && (o.n + closer.n) % 3 === 0 && !(o.n % 3 === 0 && closer.n % 3 === 0))) break;
        }
        if (j < floor) { bottom.set(kind, openers.length); break; }
        const opener = openers[j]!;
        const n = closer.ch === '~' ? closer.n : closer.n >= 2 && opener.n >= 2 ? 2 : 1;
        const tag = closer.ch === '~' ? 'del' : n === 2 ? 'strong' : 'em';
        opener.n -= n;
        closer.n -= n;
        // Inner pairs are matched first: later tags go outside them.
        opener.post = `<${tag}>${opener.post}`;
        closer.pre = `${closer.pre}</${tag}>`;
        openers.length = opener.n > 0 ? j + 1 : j;
        for (const [k, b] of bottom) if (b > openers.length) bottom.set(k, openers.length);
      }
      if (closer.open && closer.n > 0) openers.push(closer);
    }
  }

  /** `[label](href "title")` at `i` (the `[`), or null. */
  private linkAt(src: string, i: number, brackets: BracketPairs, image: boolean): { label: string; href: string; title?: string; end: number } | null {
    const pair = brackets.at(i);
    // A link holds no link (CommonMark: the innermost one is the link, the brackets around it text);
    // an image may hold one.
    if (!pair?.tail || (!image && pair.holdsLink)) return null;
    const tail = pair.tail;
    return { label: src.slice(i + 1, pair.close), href: linkText(tail.href), title: tail.title === undefined ? undefined : linkText(tail.title), end: tail.end };
  }
}

/** A `[` with the `]` that closes it: the link tail after it, if any, and whether a link is inside. */
interface BracketPair { close: number; tail: ReturnType<typeof linkTail>; holdsLink: boolean }

/**
 * Which `]` closes each `[` of a text, found in one pass (escapes and code spans skipped), so that
 * a text of many `[` costs one scan, not one per bracket. Each pair's link tail is read once, as it
 * closes, and whether a link is inside it is passed up to the pair around it.
 */
class BracketPairs {
  private pairs: Map<number, BracketPair> | undefined;
  constructor(private readonly src: string, private readonly ticks: TickRuns) {}

  /** The pair opened by the `[` at `open`, or undefined. */
  at(open: number): BracketPair | undefined {
    if (!this.pairs) {
      const pairs = new Map<number, BracketPair>();
      const stack: { open: number; holdsLink: boolean }[] = [];
      const s = this.src;
      for (let j = 0; j < s.length; j++) {
        const c = s[j];
        if (c === '\\') { j++; continue; }
        if (c === '`') {
          const run = matchAt(TICKS, s, j)![0];
          const end = this.ticks.closing(j + run.length, run.length);
          j = (end >= 0 ? end : j) + run.length - 1;
          continue;
        }
        if (c === '[') stack.push({ open: j, holdsLink: false });
        else if (c === ']' && stack.length) {
          const o = stack.pop()!;
          // A link's text is short: past 2,000 characters a `[` is taken as text.
          const tail = s[j + 1] === '(' && j - o.open <= 2000 ? linkTail(s, j + 1) : null;
          pairs.set(o.open, { close: j, tail, holdsLink: o.holdsLink });
          // A link (an image is none: a badge stays one link) or a link deeper down: the pair around holds one.
          const around = stack[stack.length - 1];
          if (around && (o.holdsLink || (tail && s[o.open - 1] !== '!'))) around.holdsLink = true;
        }
      }
      this.pairs = pairs;
    }
    return this.pairs.get(open);
  }
}

/** Where the backtick runs of a text are, by length: finding a code span's closing run costs one lookup, not a scan. */
class TickRuns {
  private byLength: Map<number, number[]> | undefined;
  constructor(private readonly src: string) {}

  /** The start of the first run of exactly `n` backticks at or after `from`, or -1. */
  closing(from: number, n: number): number {
    if (!this.byLength) {
      this.byLength = new Map();
      for (const m of this.src.matchAll(/`+/g)) {
        const list = this.byLength.get(m[0].length) ?? [];
        list.push(m.index);
        this.byLength.set(m[0].length, list);
      }
    }
    const list = this.byLength.get(n);
    if (!list) return -1;
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid]! < from) lo = mid + 1;
      else hi = mid;
    }
    return lo < list.length ? list[lo]! : -1;
  }
}
