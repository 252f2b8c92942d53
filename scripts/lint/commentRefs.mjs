// Comments must say why in place, not send the reader to a document outside the repository (the
// design document's numbered sections, the tracker's issue numbers, the numbered lessons of notes
// kept elsewhere): those are not in a clone, and their numbering moves.
// Comments are found with the TypeScript parser, so strings and test data that merely contain
// such words are not flagged.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { sourceFiles } from './sourceFiles.mjs';
import ts from 'typescript';

export const OUTSIDE_REFERENCES = [
  { what: 'the design document', re: /\bDESIGN\.md\b|\bDESIGN\s*§|§\s*\d/ },
  { what: 'an issue number', re: /\bissues?\s*#?\d+/i },
  { what: 'the shared notes', re: /\bshared\/notes\b/ },
  // A notes file's numbered lessons (the word, then its number): the reader has no such list.
  { what: 'a numbered lesson of notes', re: /\bpeers\.md\b|\blessons?\s*#?\d+/i },
];

const CODE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
const SKIP_DIRS = new Set(['node_modules', 'dist', 'out', '.vscode-test', 'test-results', 'fixtures']);


/** Every comment in a source text, with its 1-based line. */
export function commentsOf(fileName, text) {
  const kind = fileName.endsWith('x') ? ts.ScriptKind.TSX : fileName.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, kind);
  const seen = new Set();
  const found = [];
  const take = (ranges) => {
    for (const r of ranges ?? []) {
      if (seen.has(r.pos)) continue;
      seen.add(r.pos);
      found.push({ line: sf.getLineAndCharacterOfPosition(r.pos).line + 1, text: text.slice(r.pos, r.end) });
    }
  };
  const visit = (node) => {
    take(ts.getLeadingCommentRanges(text, node.pos));
    take(ts.getTrailingCommentRanges(text, node.end));
    ts.forEachChild(node, visit);
  };
  visit(sf);
  take(ts.getLeadingCommentRanges(text, sf.endOfFileToken.pos));
  return found;
}

/** `file:line: comment points at <what>: <the words>` for every offending comment under `dirs`. */
export function outsideReferences(root, dirs) {
  const problems = [];
  const files = sourceFiles(root, dirs, { code: CODE, skipDirs: SKIP_DIRS });
  for (const f of files) {
    const text = readFileSync(f, 'utf8');
    if (!OUTSIDE_REFERENCES.some(({ re }) => re.test(text))) continue;
    for (const c of commentsOf(f, text)) {
      for (const { what, re } of OUTSIDE_REFERENCES) {
        const m = c.text.match(re);
        if (!m) continue;
        const lineOffset = c.text.slice(0, m.index).split('\n').length - 1;
        problems.push(`${relative(root, f)}:${c.line + lineOffset}: a comment points at ${what} outside the repository ("${m[0].trim()}"); say the reason in place`);
      }
    }
  }
  return { files: files.length, problems };
}
