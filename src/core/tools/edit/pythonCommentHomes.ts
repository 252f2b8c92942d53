/**
 * Which Python body a comment is one of. The grammar hangs a comment written before a body's first
 * statement on the statement that owns the body (`def`, `class`, `else:` …), and one written after
 * a body's last statement on the list around it; a reader of siblings would then see the same
 * comment at different levels in the file and in a lazy text of it (where the statements between
 * are elided). By its column the comment belongs to the body whose statements start there, and it
 * is read as one of that body's members.
 */
import { namedKids, type SyntaxNode } from '../../syntax/parsedTree';

const isList = (n: SyntaxNode) => n.type === 'block' || n.type === 'module';

/** The column a body's statements start at (its first child that is no comment). */
export function statementColumn(body: SyntaxNode): number | undefined {
  return namedKids(body).find((c) => c.type !== 'comment')?.startPosition.column;
}

/** A comment before a body's first statement, hung on the statement that owns the body: that body. */
function leadingHome(c: SyntaxNode): SyntaxNode | undefined {
  const p = c.parent;
  if (!p || isList(p)) return undefined;
  const kids = namedKids(p);
  for (let j = kids.findIndex((k) => k.id === c.id) + 1; j < kids.length; j++) {
    const k = kids[j]!;
    if (k.type === 'comment') continue;
    return k.type === 'block' && statementColumn(k) === c.startPosition.column ? k : undefined;
  }
  return undefined;
}

/** A comment after a body's last statement, hung on a list further out: the innermost body at its column that ends just above it. */
function trailingHome(c: SyntaxNode): SyntaxNode | undefined {
  const p = c.parent;
  if (!p || !isList(p)) return undefined;
  const col = c.startPosition.column;
  if (col <= (statementColumn(p) ?? 0)) return undefined;
  const kids = namedKids(p);
  let j = kids.findIndex((k) => k.id === c.id) - 1;
  while (j >= 0 && kids[j]!.type === 'comment') j--;
  for (let n: SyntaxNode | undefined = kids[j]; n; n = namedKids(n).at(-1)) {
    if (n.type === 'block' && statementColumn(n) === col) return n;
  }
  return undefined;
}

function homeOf(c: SyntaxNode): SyntaxNode | null {
  return leadingHome(c) ?? trailingHome(c) ?? c.parent;
}

/** The members of `n` with each comment read in the body its column puts it in. */
export function pythonListKids(n: SyntaxNode): SyntaxNode[] {
  const own = namedKids(n).filter((k) => k.type !== 'comment' || homeOf(k)?.id === n.id);
  if (n.type !== 'block') return own;
  const adopted: SyntaxNode[] = [];
  if (n.parent) adopted.push(...namedKids(n.parent).filter((k) => k.type === 'comment' && k.startPosition.row < n.startPosition.row && leadingHome(k)?.id === n.id));
  // Comments after the body: on the lists further out, right after the statement that (at some depth) ends with it.
  for (let a: SyntaxNode = n; a.parent; a = a.parent) {
    const p = a.parent;
    if (!isList(p)) continue;
    const kids = namedKids(p);
    let j = kids.findIndex((k) => k.id === a.id) + 1;
    for (; j < kids.length && kids[j]!.type === 'comment'; j++) if (trailingHome(kids[j]!)?.id === n.id) adopted.push(kids[j]!);
    if (j < kids.length) break;
  }
  return adopted.length === 0 ? own : [...own, ...adopted].sort((x, y) => x.startPosition.row - y.startPosition.row);
}
