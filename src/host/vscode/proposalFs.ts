import * as vscode from 'vscode';

export const PROPOSED_SCHEME = 'tandem-proposed';
export const ORIGINAL_SCHEME = 'tandem-original';

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8');

interface Entry { data: Uint8Array; mtime: number; ctime: number }

/**
 * In-memory files for proposed edits (`tandem-proposed:/<callId>/<name>`), writable so the user can
 * change the proposal in the diff editor before approving; what they approve is what gets written.
 * Nothing here touches the disk.
 */
export class ProposalFs implements vscode.FileSystemProvider {
  private readonly files = new Map<string, Entry>();
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;

  /** `<scheme>:/Tandem proposal N/<file name>`: the folder keeps proposals apart and reads well in breadcrumbs. */
  static uriFor(scheme: string, folder: string, fileName: string): vscode.Uri {
    return vscode.Uri.from({ scheme, path: `/${folder.replace(/[/\\]/g, '_')}/${fileName || 'untitled'}` });
  }

  put(uri: vscode.Uri, text: string): void {
    const now = Date.now();
    const existed = this.files.has(uri.path);
    this.files.set(uri.path, { data: encoder.encode(text), mtime: now, ctime: now });
    this.changed.fire([{ type: existed ? vscode.FileChangeType.Changed : vscode.FileChangeType.Created, uri }]);
  }

  text(uri: vscode.Uri): string | undefined {
    const e = this.files.get(uri.path);
    return e ? decoder.decode(e.data) : undefined;
  }

  remove(uri: vscode.Uri): void {
    if (this.files.delete(uri.path)) this.changed.fire([{ type: vscode.FileChangeType.Deleted, uri }]);
  }

  watch(): vscode.Disposable { return new vscode.Disposable(() => undefined); }

  stat(uri: vscode.Uri): vscode.FileStat {
    const e = this.files.get(uri.path);
    if (e) return { type: vscode.FileType.File, ctime: e.ctime, mtime: e.mtime, size: e.data.byteLength };
    if (this.isDir(uri.path)) return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
    throw vscode.FileSystemError.FileNotFound(uri);
  }

  readDirectory(uri: vscode.Uri): [string, vscode.FileType][] {
    const prefix = uri.path.endsWith('/') ? uri.path : `${uri.path}/`;
    const out = new Map<string, vscode.FileType>();
    for (const p of this.files.keys()) {
      if (!p.startsWith(prefix)) continue;
      const [name, ...rest] = p.slice(prefix.length).split('/');
      out.set(name, rest.length ? vscode.FileType.Directory : vscode.FileType.File);
    }
    return [...out];
  }

  readFile(uri: vscode.Uri): Uint8Array {
    const e = this.files.get(uri.path);
    if (!e) throw vscode.FileSystemError.FileNotFound(uri);
    return e.data;
  }

  /** Only saves over an existing proposal: the user edits it; nobody creates files in this scheme. */
  writeFile(uri: vscode.Uri, content: Uint8Array): void {
    const e = this.files.get(uri.path);
    if (!e) throw vscode.FileSystemError.NoPermissions('Only an open Tandem proposal can be saved here.');
    this.files.set(uri.path, { data: content, mtime: Date.now(), ctime: e.ctime });
    this.changed.fire([{ type: vscode.FileChangeType.Changed, uri }]);
  }

  createDirectory(uri: vscode.Uri): void { throw vscode.FileSystemError.NoPermissions(uri); }
  delete(uri: vscode.Uri): void { this.remove(uri); }
  rename(uri: vscode.Uri): void { throw vscode.FileSystemError.NoPermissions(uri); }

  private isDir(path: string): boolean {
    const prefix = path.endsWith('/') ? path : `${path}/`;
    for (const p of this.files.keys()) if (p.startsWith(prefix)) return true;
    return false;
  }
}

/** The left side of a proposal's diff: the text the agent based its edit on, read-only. */
export class OriginalContent implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  put(uri: vscode.Uri, text: string): void {
    this.texts.set(uri.path, text);
    this.changed.fire(uri);
  }
  remove(uri: vscode.Uri): void { this.texts.delete(uri.path); }
  provideTextDocumentContent(uri: vscode.Uri): string { return this.texts.get(uri.path) ?? ''; }
}
