/**
 * A file's symbols from its tree-sitter parse: what `document_outline` and `find_symbol` answer
 * where no editor's language server is at hand (the CLI, tests). Declarations only — functions,
 * classes, methods, interfaces, types, enums, top-level variables — which is what a model needs to
 * find its way; it knows nothing of types or imports (definitions and references need the editor).
 */
import type { CodeSymbol } from '../ports/codeIntelligence';
import { grammarFor, languageFor } from './syntaxGuard';

/** The part of web-tree-sitter's node API the outline reads. */
interface SyntaxNode {
  readonly type: string;
  readonly text: string;
  readonly startPosition: { row: number; column: number };
  readonly namedChildren: (SyntaxNode | null)[];
  readonly parent: SyntaxNode | null;
  childForFieldName(name: string): SyntaxNode | null;
}
interface OutlineTree { readonly rootNode: SyntaxNode; delete(): void }
interface OutlineParser { setLanguage(lang: unknown): OutlineParser; parse(text: string): OutlineTree | null }

/** Declaration node types → the kind word shown, across the shipped grammars. */
const KINDS: Record<string, string> = {
  function_declaration: 'function',
  generator_function_declaration: 'function',
  function_definition: 'function',
  class_declaration: 'class',
  abstract_class_declaration: 'class',
  class_definition: 'class',
  interface_declaration: 'interface',
  type_alias_declaration: 'type',
  enum_declaration: 'enum',
  record_declaration: 'class',
  method_definition: 'method',
  method_declaration: 'method',
  constructor_declaration: 'constructor',
  method_signature: 'method',
  abstract_method_signature: 'method',
  public_field_definition: 'property',
  internal_module: 'namespace',
  module: 'namespace',
  type_spec: 'type',
  variable_declarator: 'variable',
};

/** Nodes whose declarations belong to the enclosing symbol (a class body), so they nest one deeper. */
const CONTAINERS = new Set(['class', 'interface', 'namespace', 'enum', 'type']);

/** A variable is a symbol only at the top of a file (not every local in every function). */
function topLevelVariable(node: SyntaxNode): boolean {
  let p = node.parent;
  while (p && (p.type === 'lexical_declaration' || p.type === 'variable_declaration' || p.type === 'export_statement')) p = p.parent;
  return p?.type === 'program';
}

let parser: OutlineParser | undefined;

/** The symbols of `text` (named by `file`), in document order; undefined when no grammar covers the file. */
export async function outlineOf(file: string, text: string): Promise<CodeSymbol[] | undefined> {
  const grammar = grammarFor(file);
  if (!grammar) return undefined;
  const loaded = await languageFor(grammar);
  if (!loaded) return undefined;
  parser ??= new (loaded.ts.Parser as unknown as new () => OutlineParser)();
  parser.setLanguage(loaded.lang);
  const tree = parser.parse(text);
  if (!tree) return undefined;
  try {
    const out: CodeSymbol[] = [];
    const visit = (node: SyntaxNode, depth: number, container: string | undefined) => {
      let kind: string | undefined = KINDS[node.type];
      if (kind === 'variable' && !topLevelVariable(node)) kind = undefined;
      // Go's methods have a `name` field of type field_identifier; Python's nested functions are functions.
      const nameNode = kind ? node.childForFieldName('name') : null;
      let childDepth = depth;
      let childContainer = container;
      if (kind && nameNode) {
        const isMethod = kind === 'function' && container !== undefined && grammar === 'python';
        out.push({
          name: nameNode.text,
          kind: isMethod ? 'method' : kind,
          path: file,
          line: nameNode.startPosition.row + 1,
          column: nameNode.startPosition.column,
          ...(container ? { container } : {}),
          depth,
        });
        if (CONTAINERS.has(kind)) {
          childDepth = depth + 1;
          childContainer = nameNode.text;
        } else {
          // Nothing inside a function or a variable's value is part of the outline (locals are not the file's symbols).
          return;
        }
      }
      for (const child of node.namedChildren) if (child) visit(child, childDepth, childContainer);
    };
    visit(tree.rootNode, 0, undefined);
    return out;
  } finally {
    tree.delete();
  }
}
