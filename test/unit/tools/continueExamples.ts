/**
 * Continue's lazy-apply examples (test/fixtures/continue-lazy, Apache-2.0, see NOTICE there) as
 * cases: the original file, the model's lazy rewrite, the file Continue expects, and the name of the
 * file to write (for its language). Shared by the unit suite and the edits bench.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

const fixturesDir = path.join(process.cwd(), 'test', 'fixtures', 'continue-lazy');

/**
 * The file each example is written to: named for the language its text is in. Examples named
 * without an extension are JavaScript (react-component-test has JSX, which the JavaScript grammar
 * reads); gui.js and vitest-suite have TypeScript's type annotations (and gui.js JSX), so they are
 * .tsx and .ts.
 */
const RENAMED: Record<string, string> = { 'gui.js': 'gui.tsx', 'vitest-suite': 'vitest-suite.ts' };
export const fileName = (name: string) => RENAMED[name] ?? (/\.\w+$/.test(name) ? name : name.startsWith('markdown-') ? `${name}.md` : `${name}.js`);

/**
 * May be refused. Markdown has no grammar in the build (the VSIX budget), so nothing tells its
 * structure (Rust has none either; its example is read by the line rules, and held). In gui.js a new statement stands between two markers in a function body: which
 * of the function's statements go before it and which after is a guess (Continue's own expected
 * file puts it first; in its calculator-exp it puts the new method last), and order matters there.
 */
export const MAY_REFUSE = new Set(['markdown-add-section', 'markdown-section-reordering', 'gui.js']);

/**
 * Where Continue's expected file is not what the lazy text says: in function-targetted-change the
 * model rewrote double() as `return this.multiply(2);` and the expected file still has the old
 * body's `return this;` after it (dead code no model asked for). Held to the rewrite as sent.
 */
const EXPECTED_FIXES: Record<string, (expected: string) => string> = {
  'function-targetted-change': (e) => e.replace('    return this.multiply(2);\n    return this;\n', '    return this.multiply(2);\n'),
};

export interface ContinueExample { name: string; original: string; lazy: string; expected: string }

/**
 * The expected file from Continue's displayed diff, read against the original line by line ("- x"
 * is a removal only where the original has x next). Most files write "+ " before an added line, a
 * few "+" alone; the reading taken is the one that keeps every added line's indentation even.
 */
function expectedFrom(original: string, diff: string): string {
  const orig = original.split('\n');
  const added = diff.split('\n').filter((d) => d.startsWith('+') && d.trim() !== '+');
  // (A doc comment's inner lines, " * …", sit one column off by design.)
  const even = (cut: number) => added.every((d) => /^ *\*/.test(d.slice(cut)) || /^ */.exec(d.slice(cut))![0].length % 2 === 0);
  const cut = added.every((d) => d.startsWith('+ ')) && even(2) ? 2 : 1;
  const out: string[] = [];
  let o = 0;
  for (const d of diff.split('\n')) {
    const next = orig[o]?.trimEnd();
    if (next !== undefined && next === d.trimEnd()) {
      out.push(orig[o]!);
      o++;
    } else if (d.startsWith('-') && next !== undefined && (next === d.slice(2).trimEnd() || next === d.slice(1).trimEnd())) o++;
    else if (d.startsWith('+')) out.push(d.slice(cut));
    else {
      out.push(d);
      o++;
    }
  }
  return out.join('\n');
}

export function loadContinueExamples(): ContinueExample[] {
  return fs.readdirSync(fixturesDir).filter((f) => f.endsWith('.diff')).sort().map((f) => {
    const [original, lazy, diff] = fs.readFileSync(path.join(fixturesDir, f), 'utf8').split('\n---\n').map((s) => s.replace(/^\n+/, '').trimEnd());
    const name = f.replace(/\.diff$/, '');
    const expected = expectedFrom(original!, diff!);
    return { name, original: `${original!}\n`, lazy: `${lazy!}\n`, expected: EXPECTED_FIXES[name]?.(expected) ?? expected };
  });
}

/** Same file but for spaces at line ends and blank lines at the end (Continue's own comparison ignores those too). */
const norm = (s: string) => s.split('\n').map((l) => l.trimEnd()).join('\n').replace(/\n+$/, '');
export const sameFile = (a: string, b: string) => norm(a) === norm(b);

