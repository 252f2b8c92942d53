/**
 * The code-intelligence port on the editor's own language features: whatever language servers
 * the user has (TypeScript is built in) answer through the `vscode.execute…Provider` commands.
 * Documents are opened (not shown) first, which also wakes the server for that file's project.
 */
import * as vscode from 'vscode';
import type { CodeIntelligence, CodeLocation, CodePosition, CodeSymbol, FileRewrite } from '../../core/ports/codeIntelligence';

const KIND_WORDS: Partial<Record<vscode.SymbolKind, string>> = {
  [vscode.SymbolKind.File]: 'file',
  [vscode.SymbolKind.Module]: 'module',
  [vscode.SymbolKind.Namespace]: 'namespace',
  [vscode.SymbolKind.Package]: 'package',
  [vscode.SymbolKind.Class]: 'class',
  [vscode.SymbolKind.Method]: 'method',
  [vscode.SymbolKind.Property]: 'property',
  [vscode.SymbolKind.Field]: 'field',
  [vscode.SymbolKind.Constructor]: 'constructor',
  [vscode.SymbolKind.Enum]: 'enum',
  [vscode.SymbolKind.Interface]: 'interface',
  [vscode.SymbolKind.Function]: 'function',
  [vscode.SymbolKind.Variable]: 'variable',
  [vscode.SymbolKind.Constant]: 'constant',
  [vscode.SymbolKind.EnumMember]: 'enum member',
  [vscode.SymbolKind.Struct]: 'struct',
  [vscode.SymbolKind.TypeParameter]: 'type',
};
const kindWord = (k: vscode.SymbolKind) => KIND_WORDS[k] ?? 'symbol';

const toPosition = (at: CodePosition) => new vscode.Position(at.line - 1, at.column);

function toLocation(l: vscode.Location | vscode.LocationLink): CodeLocation {
  const uri = 'targetUri' in l ? l.targetUri : l.uri;
  const range = 'targetUri' in l ? (l.targetSelectionRange ?? l.targetRange) : l.range;
  return { path: uri.fsPath, line: range.start.line + 1, column: range.start.character };
}

/** The text of `doc` after the edits (applied back to front, so earlier offsets stay valid). */
function applied(doc: vscode.TextDocument, edits: readonly vscode.TextEdit[]): string {
  const text = doc.getText();
  const spans = edits
    .map((e) => ({ start: doc.offsetAt(e.range.start), end: doc.offsetAt(e.range.end), text: e.newText }))
    .sort((a, b) => b.start - a.start);
  let out = text;
  for (const s of spans) out = out.slice(0, s.start) + s.text + out.slice(s.end);
  return out;
}

function hoverText(c: vscode.MarkdownString | vscode.MarkedString): string {
  if (typeof c === 'string') return c;
  if ('language' in c) return '```' + c.language + '\n' + c.value + '\n```';
  return c.value;
}

export class VscodeCodeIntelligence implements CodeIntelligence {
  private async open(path: string): Promise<vscode.TextDocument> {
    const uri = vscode.Uri.file(path);
    return vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString()) ?? vscode.workspace.openTextDocument(uri);
  }

  async workspaceSymbols(query: string): Promise<CodeSymbol[]> {
    const found = (await vscode.commands.executeCommand<vscode.SymbolInformation[]>('vscode.executeWorkspaceSymbolProvider', query)) ?? [];
    return found.map((s) => ({
      name: s.name,
      kind: kindWord(s.kind),
      path: s.location.uri.fsPath,
      line: s.location.range.start.line + 1,
      column: s.location.range.start.character,
      ...(s.containerName ? { container: s.containerName } : {}),
      depth: 0,
    }));
  }

  async documentSymbols(path: string): Promise<CodeSymbol[] | undefined> {
    const doc = await this.open(path);
    const found = await vscode.commands.executeCommand<(vscode.DocumentSymbol | vscode.SymbolInformation)[] | undefined>('vscode.executeDocumentSymbolProvider', doc.uri);
    if (!found?.length) return undefined;
    const out: CodeSymbol[] = [];
    const visit = (s: vscode.DocumentSymbol | vscode.SymbolInformation, depth: number, container?: string) => {
      const at = 'selectionRange' in s ? s.selectionRange.start : s.location.range.start;
      out.push({ name: s.name, kind: kindWord(s.kind), path, line: at.line + 1, column: at.character, depth, ...(container ? { container } : {}) });
      if ('children' in s) for (const c of s.children) visit(c, depth + 1, s.name);
    };
    for (const s of found) visit(s, 0);
    return out;
  }

  async definitions(path: string, at: CodePosition): Promise<CodeLocation[]> {
    const doc = await this.open(path);
    const found = (await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>('vscode.executeDefinitionProvider', doc.uri, toPosition(at))) ?? [];
    return found.map(toLocation);
  }

  async references(path: string, at: CodePosition): Promise<CodeLocation[]> {
    const doc = await this.open(path);
    const found = (await vscode.commands.executeCommand<vscode.Location[]>('vscode.executeReferenceProvider', doc.uri, toPosition(at))) ?? [];
    return found.map(toLocation);
  }

  async hover(path: string, at: CodePosition): Promise<string[]> {
    const doc = await this.open(path);
    const found = (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, toPosition(at))) ?? [];
    return found.flatMap((h) => h.contents.map(hoverText));
  }

  async rename(path: string, at: CodePosition, newName: string): Promise<FileRewrite[]> {
    const doc = await this.open(path);
    const edit = await vscode.commands.executeCommand<vscode.WorkspaceEdit | undefined>('vscode.executeDocumentRenameProvider', doc.uri, toPosition(at), newName);
    if (!edit) throw new Error('no language server renames symbols in this file');
    const out: FileRewrite[] = [];
    for (const [uri, edits] of edit.entries()) {
      if (uri.scheme !== 'file') throw new Error(`the rename would change ${uri.toString()}, which is not a file on disk`);
      out.push({ path: uri.fsPath, text: applied(await this.open(uri.fsPath), edits) });
    }
    return out;
  }
}
