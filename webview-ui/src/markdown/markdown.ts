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
  /** `alt` and `href` as written. */
  image(href: string, alt: string): string;
  /** The code's text as written (unescaped). */
  codespan(text: string): string;
  /** A code block's text (unescaped) and the first word of its info string. */
  code(text: string, lang: string): string;
}

const BLANK = /^[ \t]*$/;
const FENCE = /^( {0,3})(`{3,}|~{3,})(.*)$/;
const HEADING = /^ {0,3}(#{1,6})(?=[ \t]|$)(.*)$/;
const HR = /^ {0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$/;
const QUOTE = /^ {0,3}> ?/;
const ITEM = /^( {0,3})([-*+]|\d{1,9}[.)])(?:([ \t]+)(.*))?$/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
const TABLE_DELIM = /^ {0,3}\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;
const INDENTED = /^(?: {4}|\t)/;
// Inline patterns, matched in place (sticky) so a long paragraph is never copied once per character.
const TICKS = /`+/y;
const AUTOLINK = /<([a-zA-Z][a-zA-Z0-9+.-]{1,31}:[^\s<>]*|[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*)>/y;
const BARE_URL = /(?:https?:\/\/|www\.)[^\s<]*/iy;
const EMAIL_DOMAIN = /@[a-zA-Z0-9_-]+(?:\.[a-zA-Z0-9_-]+)+/y;
const ENTITY = /&(?:#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z][a-zA-Z0-9]{1,31});/y;
/** Characters that never start anything inline: taken in one piece. */
const PLAIN = /[^\\`[!<&@\n*_~hw]+/y;
const RUNS: Record<string, RegExp> = { '*': /\*+/y, _: /_+/y, '~': /~+/y };
const LINK_TAIL = /\([ \t\n]*(?:<([^<>\n]*)>|((?:[^\s()\\]|\\.|\((?:[^\s()\\]|\\.)*\))*))(?:[ \t\n]+("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|\((?:[^()\\]|\\.)*\)))?[ \t\n]*\)/y;

/** `re` (sticky) matched at `i` of `src`, or null. */
function matchAt(re: RegExp, src: string, i: number): RegExpExecArray | null {
  re.lastIndex = i;
  return re.exec(src);
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

/** The line without its first `n` columns of indentation. */
function unindent(line: string, n: number): string {
  let col = 0;
  let i = 0;
  while (i < line.length && col < n && (line[i] === ' ' || line[i] === '\t')) {
    col += line[i] === '\t' ? 4 - (col % 4) : 1;
    i++;
  }
  return ' '.repeat(Math.max(0, col - n)) + line.slice(i);
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

/** A run of `*`, `_` or `~` in inline text: how many are left unpaired, and the tags paired on each side. */
interface Delim { ch: string; n: number; open: boolean; close: boolean; pre: string; post: string }

/** An ordered or bullet item's marker as matched by ITEM, and where its content starts. */
interface ItemStart { indent: number; marker: string; ordered: boolean; content: string; contentIndent: number }

function itemStart(line: string): ItemStart | null {
  const m = ITEM.exec(line);
  if (!m || HR.test(line)) return null;
  const indent = m[1]!.length;
  const marker = m[2]!;
  const spaces = m[3] ?? '';
  // Five or more spaces after the marker: the content is indented code, starting one space in.
  const pad = spaces.length === 0 || indentOf(spaces) > 4 ? 1 : indentOf(spaces);
  const content = spaces.length === 0 ? '' : (indentOf(spaces) > 4 ? ' '.repeat(indentOf(spaces) - 1) : '') + (m[4] ?? '');
  return { indent, marker, ordered: /\d/.test(marker), content, contentIndent: indent + marker.length + pad };
}

function sameList(a: ItemStart, b: ItemStart): boolean {
  return a.ordered === b.ordered && a.marker.slice(-1) === b.marker.slice(-1);
}

export class MarkdownRenderer {
  constructor(private readonly parts: MarkdownParts) {}

  render(src: string): string {
    return this.blocks(src.replace(/\r\n?/g, '\n').split('\n'), false);
  }

  /** Whether `line` starts a block that ends a paragraph before it. */
  private interrupts(line: string, next: string | undefined): boolean {
    if (FENCE.test(line) || HEADING.test(line) || HR.test(line) || QUOTE.test(line)) return true;
    const item = itemStart(line);
    if (item && item.content.trim() !== '' && (!item.ordered || /^0*1\D/.test(item.marker + ' '))) return true;
    return next !== undefined && line.includes('|') && TABLE_DELIM.test(next) && cells(line).length === cells(next).length;
  }

  /** Renders lines as blocks; `tight`: paragraphs without <p> (a tight list's items). */
  private blocks(lines: string[], tight: boolean): string {
    let out = '';
    let i = 0;
    while (i < lines.length) {
      const line = lines[i]!;
      if (BLANK.test(line)) { i++; continue; }
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
          body.push(unindent(l, indent));
          i++;
        }
        out += this.parts.code(body.join('\n'), m[3]!.trim().split(/\s+/)[0] ?? '');
        continue;
      }
      if (INDENTED.test(line)) {
        const body: string[] = [];
        while (i < lines.length && (INDENTED.test(lines[i]!) || BLANK.test(lines[i]!))) body.push(unindent(lines[i++]!, 4));
        while (body.length && BLANK.test(body[body.length - 1]!)) body.pop();
        out += this.parts.code(body.join('\n'), '');
        continue;
      }
      if ((m = HEADING.exec(line))) {
        const level = m[1]!.length;
        const text = m[2]!.replace(/(?:^|[ \t]+)#+[ \t]*$/, '').trim();
        out += `<h${level}>${this.inline(text)}</h${level}>\n`;
        i++;
        continue;
      }
      if (HR.test(line)) { out += '<hr>\n'; i++; continue; }
      if (QUOTE.test(line)) {
        const inner: string[] = [];
        let lazyOk = false;
        while (i < lines.length) {
          const l = lines[i]!;
          if (QUOTE.test(l)) {
            const stripped = l.replace(QUOTE, '');
            inner.push(stripped);
            lazyOk = !BLANK.test(stripped) && !FENCE.test(stripped);
          } else if (lazyOk && !BLANK.test(l) && !this.interrupts(l, lines[i + 1])) {
            inner.push(l);
          } else break;
          i++;
        }
        out += `<blockquote>\n${this.blocks(inner, false)}</blockquote>\n`;
        continue;
      }
      const first = itemStart(line);
      if (first) { i = this.list(lines, i, first, (html) => { out += html; }); continue; }
      if (line.includes('|') && i + 1 < lines.length && TABLE_DELIM.test(lines[i + 1]!)) {
        const head = cells(line);
        const aligns = cells(lines[i + 1]!).map((c) => (c.startsWith(':') ? (c.endsWith(':') ? 'center' : 'left') : c.endsWith(':') ? 'right' : ''));
        if (head.length === aligns.length) {
          const cell = (tag: string, text: string, k: number) => `<${tag}${aligns[k] ? ` align="${aligns[k]}"` : ''}>${this.inline(text)}</${tag}>`;
          out += `<table>\n<thead>\n<tr>${head.map((c, k) => cell('th', c, k)).join('')}</tr>\n</thead>\n`;
          i += 2;
          let body = '';
          while (i < lines.length && !BLANK.test(lines[i]!) && !this.interrupts(lines[i]!, undefined)) {
            const row = cells(lines[i]!);
            body += `<tr>${aligns.map((_, k) => cell('td', row[k] ?? '', k)).join('')}</tr>\n`;
            i++;
          }
          out += `${body ? `<tbody>\n${body}</tbody>\n` : ''}</table>\n`;
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
      const text = para.map((l) => l.replace(/^[ \t]+/, '')).join('\n').replace(/[ \t]+$/, '');
      if (heading) out += `<h${heading}>${this.inline(text)}</h${heading}>\n`;
      else out += tight ? this.inline(text) : `<p>${this.inline(text)}</p>\n`;
    }
    return out;
  }

  /** A list starting at `lines[i]`; returns the index after it. */
  private list(lines: string[], i: number, first: ItemStart, emit: (html: string) => void): number {
    const items: string[][] = [];
    let loose = false;
    let start: ItemStart | null = first;
    while (start && sameList(first, start)) {
      const body = [start.content];
      const ci = start.contentIndent;
      i++;
      let blankBefore = false;
      while (i < lines.length) {
        const l = lines[i]!;
        if (BLANK.test(l)) { body.push(''); blankBefore = true; i++; continue; }
        if (indentOf(l) >= ci) { body.push(unindent(l, ci)); blankBefore = false; i++; continue; }
        // A lazy continuation of the item's paragraph.
        if (!blankBefore && !BLANK.test(body[body.length - 1]!) && !itemStart(l) && !this.interrupts(l, lines[i + 1])) { body.push(l); i++; continue; }
        break;
      }
      // Blank lines at the end of an item belong to the gap before whatever follows.
      let trailing = 0;
      while (body.length > 1 && BLANK.test(body[body.length - 1]!)) { body.pop(); trailing++; }
      if (body.slice(1).some((l, k) => BLANK.test(l) && k + 2 < body.length)) loose = true;
      items.push(body);
      start = i < lines.length ? itemStart(lines[i]!) : null;
      if (start && sameList(first, start) && trailing > 0) loose = true;
    }
    const num = parseInt(first.marker, 10);
    const open = first.ordered ? `<ol${num !== 1 ? ` start="${num}"` : ''}>` : '<ul>';
    let html = `${open}\n`;
    for (const body of items) {
      let task = '';
      const t = /^\[([ xX])\][ \t]+/.exec(body[0]!);
      if (t) {
        task = `<input ${t[1] === ' ' ? '' : 'checked="" '}disabled="" type="checkbox"> `;
        body[0] = body[0]!.slice(t[0].length);
      }
      html += `<li>${task}${this.blocks(body, !loose).replace(/\n$/, '')}</li>\n`;
    }
    emit(`${html}${first.ordered ? '</ol>' : '</ul>'}\n`);
    return i;
  }

  /** Inline markdown → HTML; `inLink`: no links inside (a link's own text). */
  inline(src: string, inLink = false): string {
    const out: (string | Delim)[] = [];
    let text = '';
    const flush = (): void => { if (text) { out.push(text); text = ''; } };
    const isSpace = (c: string | undefined) => c === undefined || /\s/.test(c);
    const isPunct = (c: string | undefined) => c !== undefined && /[\p{P}\p{S}]/u.test(c);
    const ticks = new TickRuns(src);
    let i = 0;
    while (i < src.length) {
      const plain = matchAt(PLAIN, src, i);
      if (plain) { text += escapeHtml(plain[0]); i += plain[0].length; continue; }
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
          out.push(this.parts.codespan(code));
          i = end + run.length;
          continue;
        }
        text += escapeHtml(run);
        i += run.length;
        continue;
      }
      if ((c === '[' || (c === '!' && src[i + 1] === '[')) && !inLink) {
        const link = this.linkAt(src, c === '!' ? i + 1 : i, ticks);
        if (link) {
          flush();
          out.push(c === '!' ? this.parts.image(link.href, link.label) : this.parts.link(link.href, link.title, this.inline(link.label, true)));
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
      if (!inLink && (c === 'h' || c === 'w') && (i === 0 || /[\s(*_~]/.test(src[i - 1]!))) {
        const url = matchAt(BARE_URL, src, i);
        if (url) {
          let u = url[0].replace(/[?!.,:*_~'"]+$/, '');
          while (u.endsWith(')') && u.split('(').length < u.split(')').length) u = u.slice(0, -1).replace(/[?!.,:*_~'"]+$/, '');
          if (/^(?:https?:\/\/|www\.)[^.\s]+\.[^\s]/i.test(u) || /^https?:\/\/[^\s/]+/i.test(u)) {
            flush();
            out.push(this.parts.link(/^www\./i.test(u) ? `http://${u}` : u, undefined, escapeHtml(u)));
            i += u.length;
            continue;
          }
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
        // Two spaces (or more) before a line break make a hard break.
        if (/ {2,}$/.test(text)) text = `${text.replace(/ +$/, '')}<br>`;
        else text = text.replace(/ +$/, '');
        text += '\n';
        i++;
        while (src[i] === ' ') i++;
        continue;
      }
      if (c === '*' || c === '_' || c === '~') {
        const run = matchAt(RUNS[c]!, src, i)![0];
        const before = src[i - 1];
        const after = src[i + run.length];
        const left = !isSpace(after) && (!isPunct(after) || isSpace(before) || isPunct(before));
        const right = !isSpace(before) && (!isPunct(before) || isSpace(after) || isPunct(after));
        const open = c === '_' ? left && (!right || isPunct(before)) : left;
        const close = c === '_' ? right && (!left || isPunct(after)) : right;
        flush();
        if (c === '~' && run.length > 2) text += run;
        else out.push({ ch: c, n: run.length, open, close, pre: '', post: '' });
        i += run.length;
        continue;
      }
      text += escapeHtml(c);
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
    for (const closer of items) {
      if (typeof closer === 'string') continue;
      while (closer.close && closer.n > 0) {
        let j = openers.length - 1;
        for (; j >= 0; j--) {
          const o = openers[j]!;
          if (o.ch !== closer.ch) continue;
          if (closer.ch === '~' ? o.n === closer.n : !((o.close || closer.open) && (o.n + closer.n) % 3 === 0 && !(o.n % 3 === 0 && closer.n % 3 === 0))) break;
        }
        if (j < 0) break;
        const opener = openers[j]!;
        const n = closer.ch === '~' ? closer.n : closer.n >= 2 && opener.n >= 2 ? 2 : 1;
        const tag = closer.ch === '~' ? 'del' : n === 2 ? 'strong' : 'em';
        opener.n -= n;
        closer.n -= n;
        // Inner pairs are matched first: later tags go outside them.
        opener.post = `<${tag}>${opener.post}`;
        closer.pre = `${closer.pre}</${tag}>`;
        openers.length = opener.n > 0 ? j + 1 : j;
      }
      if (closer.open && closer.n > 0) openers.push(closer);
    }
  }

  /** `[label](href "title")` at `i` (the `[`), or null. */
  private linkAt(src: string, i: number, ticks: TickRuns): { label: string; href: string; title?: string; end: number } | null {
    // A link's text is short: past this many characters a `[` is taken as text (no scan to the end per bracket).
    const limit = Math.min(src.length, i + 2000);
    if (src.indexOf('](', i) < 0) return null;
    let depth = 0;
    let j = i;
    for (; j < limit; j++) {
      const c = src[j];
      if (c === '\\') { j++; continue; }
      if (c === '`') {
        const run = matchAt(TICKS, src, j)![0];
        const end = ticks.closing(j + run.length, run.length);
        if (end >= 0) j = end + run.length - 1;
        continue;
      }
      if (c === '[') depth++;
      else if (c === ']' && --depth === 0) break;
    }
    if (j >= limit || src[j + 1] !== '(') return null;
    const m = matchAt(LINK_TAIL, src, j + 1);
    if (!m) return null;
    const unescape = (s: string) => s.replace(/\\([!-/:-@[-`{-~])/g, '$1');
    return {
      label: src.slice(i + 1, j),
      href: unescape(m[1] ?? m[2] ?? ''),
      title: m[3] ? unescape(m[3].slice(1, -1)) : undefined,
      end: j + 1 + m[0].length,
    };
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
