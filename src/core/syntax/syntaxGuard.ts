/**
 * The syntax guard: a file is parsed with tree-sitter before and after an edit, and an edit that
 * leaves a new syntax error is not written. A file that already had errors is judged by "no new
 * errors"; languages without a grammar here are not judged at all.
 *
 * The parser (web-tree-sitter) and the grammars (the WebAssembly builds VS Code itself ships,
 * @vscode/tree-sitter-wasm) are loaded on the first edit of a language, not at activation: the
 * build puts `tree-sitter.js` and `tree-sitter/*.wasm` beside the bundle; tests and development
 * load them from node_modules. The `require` arguments are computed so esbuild leaves them alone.
 * If nothing loads, edits are not judged (and the result says the guard was not applied).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { commonLineEnds } from '../text/commonLineEnds';

/** The part of web-tree-sitter's API the guard uses (the module itself is loaded at run time). */
declare namespace TreeSitter {
  interface Point { row: number; column: number }
  interface Node {
    readonly type: string;
    readonly text: string;
    readonly startPosition: Point;
    readonly isError: boolean;
    readonly isMissing: boolean;
    readonly hasError: boolean;
    readonly children: (Node | null)[];
  }
  interface Tree {
    readonly rootNode: Node;
    copy(): Tree;
    edit(e: { startIndex: number; oldEndIndex: number; newEndIndex: number; startPosition: Point; oldEndPosition: Point; newEndPosition: Point }): void;
    delete(): void;
  }
  interface Language { readonly name: string | null }
  interface Parser {
    setLanguage(lang: Language): Parser;
    parse(text: string, oldTree?: Tree): Tree | null;
  }
}
interface Runtime {
  Parser: { new (): TreeSitter.Parser; init(opts: { locateFile: () => string }): Promise<void> };
  Language: { load(bytes: Uint8Array): Promise<TreeSitter.Language> };
}

/** File extensions → grammar names (the `tree-sitter-<name>.wasm` files the build ships). */
const GRAMMARS: Record<string, string> = {
  '.py': 'python', '.pyi': 'python',
  '.go': 'go',
  '.ts': 'typescript', '.mts': 'typescript', '.cts': 'typescript',
  '.tsx': 'tsx',
  '.js': 'javascript', '.mjs': 'javascript', '.cjs': 'javascript', '.jsx': 'javascript',
  '.css': 'css',
  '.java': 'java',
};
export const SHIPPED_GRAMMARS = [...new Set(Object.values(GRAMMARS))];

export function grammarFor(filePath: string): string | undefined {
  return GRAMMARS[path.extname(filePath).toLowerCase()];
}

function tryResolve(spec: string): string | undefined {
  try {
    return require.resolve(spec);
  } catch {
    return undefined;
  }
}

/** Where the .wasm files are: beside the bundle when built, else in node_modules. */
function wasmPath(file: string): string | undefined {
  const beside = path.join(__dirname, 'tree-sitter', file);
  if (fs.existsSync(beside)) return beside;
  if (file === 'tree-sitter.wasm') return tryResolve(['web-tree-sitter', 'tree-sitter.wasm'].join('/'));
  const pkg = tryResolve(['@vscode', 'tree-sitter-wasm', 'package.json'].join('/'));
  const inPkg = pkg && path.join(path.dirname(pkg), 'wasm', file);
  return inPkg && fs.existsSync(inPkg) ? inPkg : undefined;
}

let runtime: Promise<Runtime | undefined> | undefined;
const languages = new Map<string, Promise<TreeSitter.Language | undefined>>();
let parser: TreeSitter.Parser | undefined;

async function loadRuntime(): Promise<Runtime | undefined> {
  const runtimeWasm = wasmPath('tree-sitter.wasm');
  if (!runtimeWasm) return undefined;
  for (const c of [path.join(__dirname, 'tree-sitter.js'), ['web', 'tree', 'sitter'].join('-')]) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const mod = require(c) as Runtime;
      await mod.Parser.init({ locateFile: () => runtimeWasm });
      return mod;
    } catch {
      /* try the next */
    }
  }
  return undefined;
}

/** The parser runtime and a grammar by name, loaded once (also used by the symbol outline). */
export async function languageFor(name: string): Promise<{ ts: Runtime; lang: TreeSitter.Language } | undefined> {
  runtime ??= loadRuntime();
  const ts = await runtime;
  if (!ts) return undefined;
  let lang = languages.get(name);
  if (!lang) {
    const file = wasmPath(`tree-sitter-${name}.wasm`);
    lang = file ? ts.Language.load(fs.readFileSync(file)).catch(() => undefined) : Promise.resolve(undefined);
    languages.set(name, lang);
  }
  const loaded = await lang;
  return loaded ? { ts, lang: loaded } : undefined;
}

interface SyntaxError {
  line: number;
  what: string;
  /** The offending line's text, so the same error moved by an edit is recognised as old. */
  text: string;
}

const MAX_ERRORS = 100;

/** The error and missing nodes of a parse, outermost first, visiting only subtrees that have errors. */
function errorsOf(tree: TreeSitter.Tree, lines: string[]): SyntaxError[] {
  const out: SyntaxError[] = [];
  const visit = (node: TreeSitter.Node) => {
    if (out.length >= MAX_ERRORS) return;
    if (node.isError || node.isMissing) {
      const row = node.startPosition.row;
      const what = node.isMissing ? `missing "${node.type}"` : `unexpected ${JSON.stringify(node.text.split('\n')[0]!.slice(0, 40))}`;
      out.push({ line: row + 1, what, text: (lines[row] ?? '').trim() });
      if (node.isMissing) return;
    }
    if (!node.hasError) return;
    for (const child of node.children) if (child) visit(child);
  };
  visit(tree.rootNode);
  return out;
}

/**
 * Parsed trees of the texts last judged, per file: the next edit of the file starts from the tree
 * of its current text and reparses only what changed (tree-sitter's incremental parsing), which
 * is what keeps the guard within its budget on long files.
 */
const recent = new Map<string, { text: string; tree: TreeSitter.Tree }[]>();
const KEEP_FILES = 8;

function pointAt(text: string, index: number): TreeSitter.Point {
  let row = 0;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) {
    row++;
    lineStart = i + 1;
  }
  return { row, column: index - lineStart };
}

function remember(label: string, text: string, tree: TreeSitter.Tree): void {
  const list = recent.get(label) ?? [];
  list.unshift({ text, tree });
  while (list.length > 2) list.pop()!.tree.delete();
  recent.delete(label);
  recent.set(label, list);
  while (recent.size > KEEP_FILES) {
    const [oldest, trees] = recent.entries().next().value as [string, { tree: TreeSitter.Tree }[]];
    for (const t of trees) t.tree.delete();
    recent.delete(oldest);
  }
}

/** The tree of `text`: remembered, or reparsed from a remembered tree of the same file, or parsed whole. */
function treeOf(ts: Runtime, lang: TreeSitter.Language, file: string, text: string): TreeSitter.Tree | undefined {
  // Trees are remembered per file and language (a file renamed to another extension starts afresh).
  const label = `${lang.name ?? ''}:${file}`;
  const list = recent.get(label) ?? [];
  const same = list.find((x) => x.text === text);
  if (same) {
    // Most recent first: the tree just asked for is the base of the next reparse and must outlive it.
    list.splice(list.indexOf(same), 1);
    list.unshift(same);
    return same.tree;
  }
  parser ??= new ts.Parser();
  parser.setLanguage(lang);
  const base = list[0];
  let old: TreeSitter.Tree | undefined;
  if (base) {
    const a = base.text;
    let p = 0;
    const max = Math.min(a.length, text.length);
    while (p < max && a.charCodeAt(p) === text.charCodeAt(p)) p++;
    let q = 0;
    while (q < max - p && a.charCodeAt(a.length - 1 - q) === text.charCodeAt(text.length - 1 - q)) q++;
    old = base.tree.copy();
    old.edit({
      startIndex: p,
      oldEndIndex: a.length - q,
      newEndIndex: text.length - q,
      startPosition: pointAt(a, p),
      oldEndPosition: pointAt(a, a.length - q),
      newEndPosition: pointAt(text, text.length - q),
    });
  }
  const tree = parser.parse(text, old) ?? undefined;
  old?.delete();
  if (tree) remember(label, text, tree);
  return tree;
}

/**
 * The tree of `text` as the guard keeps it for `label` (found, or reparsed from the file's last
 * tree): code that reads a file's structure before an edit shares the guard's parse, so the guard's
 * own check of the edit is an incremental reparse. The caller must not delete it, nor keep it past the edit.
 */
export async function guardTreeOf(label: string, text: string): Promise<{ readonly rootNode: unknown } | undefined> {
  const name = grammarFor(label);
  const loaded = name ? await languageFor(name) : undefined;
  return loaded ? treeOf(loaded.ts, loaded.lang, label, text) : undefined;
}

function parseErrors(ts: Runtime, lang: TreeSitter.Language, label: string, text: string): SyntaxError[] | undefined {
  const tree = treeOf(ts, lang, label, text);
  if (!tree) return undefined;
  return tree.rootNode.hasError ? errorsOf(tree, text.split('\n')) : [];
}

/** Whether the lines the edit changed (with one line either side) already had an error. */
function touchesErrors(before: string, after: string, errors: SyntaxError[]): boolean {
  const { b, start, end } = commonLineEnds(before, after);
  // 1-based lines of the changed span, widened by one line either side.
  const first = start;
  const last = b.length - end + 1;
  return errors.some((e) => e.line >= first && e.line <= last);
}

export type SyntaxVerdict =
  | { checked: false }
  | { checked: true; language: string; ok: true }
  | { checked: true; language: string; ok: false; message: string };

/**
 * Judges `after` against `before` (undefined for a new file, judged as if it had been empty: any
 * error in it is new). `label` names the file in the message.
 */
export async function checkSyntax(label: string, original: string | undefined, after: string): Promise<SyntaxVerdict> {
  const name = grammarFor(label);
  if (!name) return { checked: false };
  const before = original ?? '';
  const loaded = await languageFor(name);
  if (!loaded) return { checked: false };
  // The tree of the text before is parsed (or found) first so the text after is an incremental reparse of it.
  const beforeTree = treeOf(loaded.ts, loaded.lang, label, before);
  const errorsAfter = parseErrors(loaded.ts, loaded.lang, label, after);
  if (!errorsAfter) return { checked: false };
  if (errorsAfter.length === 0) return { checked: true, language: name, ok: true };
  const errorsBefore = beforeTree?.rootNode.hasError ? errorsOf(beforeTree, before.split('\n')) : [];
  // An error is old when the file already had one like it on a line with the same text.
  const old = new Map<string, number>();
  for (const e of errorsBefore) old.set(`${e.what}\n${e.text}`, (old.get(`${e.what}\n${e.text}`) ?? 0) + 1);
  const fresh = errorsAfter.filter((e) => {
    const k = `${e.what}\n${e.text}`;
    const n = old.get(k) ?? 0;
    if (n > 0) {
      old.set(k, n - 1);
      return false;
    }
    return true;
  });
  // In a file that was already broken, errors move and change shape as text changes around them:
  // an edit inside (or next to) a region that already had errors is not blamed for them, and
  // elsewhere only more errors than before count against it.
  if (fresh.length === 0 || (errorsBefore.length > 0 && (errorsAfter.length <= errorsBefore.length || touchesErrors(before, after, errorsBefore)))) {
    return { checked: true, language: name, ok: true };
  }
  const first = fresh[0]!;
  const lines = after.split('\n');
  const from = Math.max(0, first.line - 3);
  const to = Math.min(lines.length, first.line + 2);
  const shown = lines.slice(from, to).map((l, k) => `${from + k + 1}\t${l.replace(/\r$/, '')}`).join('\n');
  const more = fresh.length > 1 ? ` (and ${fresh.length - 1} more)` : '';
  return {
    checked: true,
    language: name,
    ok: false,
    message:
      (original === undefined
        ? `Refused: the new file ${label} would have a syntax error: `
        : `Refused: the change would leave ${label} with a syntax error it did not have${errorsBefore.length ? ' (besides the ones it already had)' : ''}: `) +
      `line ${first.line}: ${first.what}${more} (checked with the ${name} parser).\n${shown}\nThe change was not written; fix it and send it again.`,
  };
}
