/**
 * A whole parse of a text with one of the bundled grammars, for the code that reads a file's
 * structure (the lazy-edit reconstruction); the guard keeps its own incremental trees. The node
 * API named here is the part of web-tree-sitter's that this code reads.
 */
import { languageFor } from './syntaxGuard';

export interface SyntaxNode {
  /** Unique within its tree; two wrappers of the same node have the same id. */
  readonly id: number;
  readonly type: string;
  readonly text: string;
  readonly isNamed: boolean;
  readonly hasError: boolean;
  readonly isError: boolean;
  readonly isMissing: boolean;
  readonly startPosition: { row: number; column: number };
  readonly endPosition: { row: number; column: number };
  readonly parent: SyntaxNode | null;
  readonly children: (SyntaxNode | null)[];
  readonly namedChildren: (SyntaxNode | null)[];
  childForFieldName(name: string): SyntaxNode | null;
}
export interface ParsedTree { readonly rootNode: SyntaxNode; delete(): void }
interface TreeParser { setLanguage(lang: unknown): TreeParser; parse(text: string): ParsedTree | null }

let parser: TreeParser | undefined;

/** The tree of `text` in grammar `grammar`, or undefined when the grammar does not load. The caller deletes it. */
export async function parseWith(grammar: string, text: string): Promise<ParsedTree | undefined> {
  const loaded = await languageFor(grammar);
  if (!loaded) return undefined;
  parser ??= new (loaded.ts.Parser as unknown as new () => TreeParser)();
  parser.setLanguage(loaded.lang);
  return parser.parse(text) ?? undefined;
}

/** The named children, without the null holes the API allows. */
export function namedKids(n: SyntaxNode): SyntaxNode[] {
  return n.namedChildren.filter((c): c is SyntaxNode => c !== null);
}

export function isAncestorOrSelf(a: SyntaxNode, n: SyntaxNode | null): boolean {
  for (let p = n; p; p = p.parent) if (p.id === a.id) return true;
  return false;
}
