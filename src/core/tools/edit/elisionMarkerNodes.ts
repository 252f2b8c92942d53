/**
 * Where in a lazy text's syntax tree each elision marker stands: the comment alone on its line
 * ("// ... existing code ...", "# ...", "{/* ... *\/}" in JSX) and the node whose list of children
 * it is one of. That list is what the marker is read against: it stands for a run of the
 * original's children of the matching node.
 *
 * Python's grammar hangs some comments a level off (one before a body's first statement belongs
 * to the function, one after a block's last statement to the block around it); there the list is
 * the block whose statements start at the marker's column.
 */
import { isAncestorOrSelf, namedKids, type SyntaxNode } from '../../syntax/parsedTree';
import { listOwner } from './listMembers';
import { statementColumn } from './pythonCommentHomes';

export interface MarkerNode {
  /** The comment, or the JSX expression that only wraps it. */
  readonly node: SyntaxNode;
  readonly row: number;
  /** The node whose children the marker is one of. */
  readonly container: SyntaxNode;
  /** The marker's line, trimmed, for messages. */
  readonly line: string;
}

const indentWidth = (line: string) => /^[ \t]*/.exec(line)![0].replace(/\t/g, '    ').length;


/** Rows between `from` and `to` (exclusive) are all blank or comments. */
function onlyBlankOrComments(lines: string[], from: number, to: number): boolean {
  for (let r = from + 1; r < to; r++) {
    const t = lines[r]!.trim();
    if (t !== '' && !t.startsWith('#')) return false;
  }
  return true;
}

function pythonContainer(root: SyntaxNode, lines: string[], row: number, fallback: SyntaxNode): SyntaxNode {
  const col = indentWidth(lines[row]!);
  if (col === 0) return root;
  // The last line of code above the marker: a block that ends there may still be the marker's.
  let low = row - 1;
  while (low > 0 && (lines[low]!.trim() === '' || lines[low]!.trim().startsWith('#'))) low--;
  // And the first below it: a block that starts there (after blank lines) is the marker's too.
  let high = row + 1;
  while (high < lines.length - 1 && (lines[high]!.trim() === '' || lines[high]!.trim().startsWith('#'))) high++;
  let best: { node: SyntaxNode; depth: number } | undefined;
  const visit = (n: SyntaxNode, depth: number) => {
    if (n.startPosition.row > high || n.endPosition.row < low) return;
    if (n.type === 'block' && statementColumn(n) === col) {
      const start = n.startPosition.row;
      const end = n.endPosition.row;
      const inside = (start - 1 <= row || onlyBlankOrComments(lines, row, start)) && (row <= end || onlyBlankOrComments(lines, end, row));
      if (inside && (!best || depth > best.depth)) best = { node: n, depth };
    }
    for (const c of namedKids(n)) visit(c, depth + 1);
  };
  visit(root, 0);
  return best?.node ?? fallback;
}

/**
 * The markers of a lazy text: comments alone on their line that `isMarkerLine` accepts (the
 * caller's rule: a marker's wording, and not a line the original has).
 */
export function findElisionMarkers(root: SyntaxNode, lines: string[], grammar: string, isMarkerLine: (line: string) => boolean): MarkerNode[] {
  const out: MarkerNode[] = [];
  const visit = (n: SyntaxNode) => {
    if (n.type.includes('comment') && n.startPosition.row === n.endPosition.row) {
      const row = n.startPosition.row;
      const line = lines[row] ?? '';
      const wrapper = n.parent?.type === 'jsx_expression' && namedKids(n.parent).length === 1 ? n.parent : undefined;
      const node = wrapper && line.trim() === wrapper.text.trim() ? wrapper : n;
      if (line.trim() === node.text.trim() && isMarkerLine(line) && node.parent) {
        const container = grammar === 'python' ? pythonContainer(root, lines, row, node.parent) : listOwner(node.parent);
        out.push({ node, row, container, line: line.trim() });
      }
      return;
    }
    for (const c of namedKids(n)) visit(c);
  };
  visit(root);
  return out;
}

/** Whether any marker stands in `n`'s children or deeper. */
export function holdsMarker(n: SyntaxNode, markers: readonly MarkerNode[]): boolean {
  return markers.some((m) => isAncestorOrSelf(n, m.container));
}
