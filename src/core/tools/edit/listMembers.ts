/**
 * The members of a list node (a file, a body, a class's members) as the lazy-edit reading sees them.
 */
import { namedKids, type SyntaxNode } from '../../syntax/parsedTree';
import { pythonListKids } from './pythonCommentHomes';

/**
 * The members of a list node as one list: Go's block holds its leading comments itself and its
 * statements in a statement_list; read as one, a marker among the comments stands among the statements.
 * Python's comments are read in the body their column puts them in (pythonCommentHomes.ts).
 */
export function listKids(n: SyntaxNode, grammar?: string): SyntaxNode[] {
  if (grammar === 'python') return pythonListKids(n);
  return namedKids(n).flatMap((c) => (c.type === 'statement_list' ? namedKids(c) : [c]));
}

/** The node whose list a child of `n` is in (the block, for Go's statement_list). */
export function listOwner(n: SyntaxNode): SyntaxNode {
  return n.type === 'statement_list' && n.parent ? n.parent : n;
}
