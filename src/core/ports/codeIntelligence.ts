/**
 * What the code-intelligence tools need from an editor's language servers. The VS Code host
 * answers through the editor's own providers (`vscode.executeWorkspaceSymbolProvider` and
 * friends); hosts without an editor leave it out, and the tools fall back to tree-sitter where
 * they can. Paths are absolute; lines are 1-based, columns 0-based (UTF-16 units, as editors count).
 */

export interface CodePosition {
  line: number;
  column: number;
}

export interface CodeLocation extends CodePosition {
  path: string;
}

export interface CodeSymbol extends CodeLocation {
  name: string;
  /** A plain word: function, class, method, interface, type, enum, variable, property, namespace… */
  kind: string;
  /** The enclosing symbol's name (a method's class), when known. */
  container?: string;
  /** Nesting in a document outline (0 = top level). */
  depth: number;
}

/** A file's whole new text, as a rename leaves it. */
export interface FileRewrite {
  path: string;
  text: string;
}

export interface CodeIntelligence {
  /** Workspace symbols whose name matches `query` (the language servers' own fuzzy match). */
  workspaceSymbols(query: string): Promise<CodeSymbol[]>;
  /** A file's symbols in document order; undefined when no language server answered for it. */
  documentSymbols(path: string): Promise<CodeSymbol[] | undefined>;
  definitions(path: string, at: CodePosition): Promise<CodeLocation[]>;
  references(path: string, at: CodePosition): Promise<CodeLocation[]>;
  /** The hover texts (type, signature, docs) as markdown or plain text. */
  hover(path: string, at: CodePosition): Promise<string[]>;
  /**
   * Every file a rename changes, with its new text; nothing is written. Throws with the language
   * server's own reason when it refuses (not a symbol, a library symbol), or when no server renames here.
   */
  rename(path: string, at: CodePosition, newName: string): Promise<FileRewrite[]>;
}
