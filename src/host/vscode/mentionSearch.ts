/**
 * The `@` picker's file and folder search on the editor's own file search (`findFiles`, which
 * honours `files.exclude`), indexed once and dropped when files are created or deleted. The ignore
 * rules (.gitignore / .tandemignore) are applied to what is offered; the message's mentions are
 * checked again when it is sent (the webview is untrusted, and the picker is only a convenience).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { IgnoreMatcher, WALK_SKIP_DIRS } from '../../core/policy/ignorePolicy';
import { PathIndex } from '../../core/mentions/pathIndex';
import type { WorkspaceFs } from '../../core/ports/ports';

const MAX_FILES = 200_000;
const SHOWN = 20;

export class MentionSearch implements vscode.Disposable {
  private index: Promise<PathIndex> | undefined;
  private matcher: IgnoreMatcher;
  private readonly watcher: vscode.FileSystemWatcher;

  constructor(private readonly fs: WorkspaceFs) {
    this.matcher = new IgnoreMatcher(fs);
    this.watcher = vscode.workspace.createFileSystemWatcher('**/*', false, true, false);
    const stale = () => { this.index = undefined; };
    this.watcher.onDidCreate(stale);
    this.watcher.onDidDelete(stale);
  }

  async search(query: string): Promise<string[]> {
    const root = this.fs.roots[0];
    if (!root) return [];
    const index = await (this.index ??= this.build(root));
    const out: string[] = [];
    // Ranked first, then filtered: the ignore check runs on a few dozen paths, not on the whole tree.
    for (const p of index.search(query, SHOWN * 3)) {
      const isDir = p.endsWith('/');
      if (await this.matcher.ignores(root, isDir ? p.slice(0, -1) : p, isDir)) continue;
      out.push(p);
      if (out.length >= SHOWN) break;
    }
    return out;
  }

  private async build(root: string): Promise<PathIndex> {
    // The ignore files may have changed too: their rules are read afresh with the new index.
    this.matcher = new IgnoreMatcher(this.fs);
    const skip = `**/{${[...WALK_SKIP_DIRS].join(',')}}/**`;
    const uris = await vscode.workspace.findFiles(new vscode.RelativePattern(vscode.Uri.file(root), '**/*'), skip, MAX_FILES);
    const rels: string[] = [];
    for (const u of uris) {
      const rel = path.relative(root, u.fsPath);
      if (rel && !rel.startsWith('..') && !path.isAbsolute(rel)) rels.push(rel.split(path.sep).join('/'));
    }
    return new PathIndex(rels);
  }

  dispose(): void {
    this.watcher.dispose();
  }
}
