import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { VscodeWorkspaceFs } from '../../../src/host/vscode/vscodeWorkspaceFs';
import { createHash } from 'node:crypto';
import { applyStepPatch } from '../../../src/core/planRuns/applyStepPatch';
import type { StepPatchEntry } from '../../../src/core/ports/stepWorkspaces';
import { waitUntil } from '../../support/wait';
import { closeAllEditors, removeDir, tempDir } from './helpers';

/** A step's change of `rel` from `was` to `now` (a file, as a step patch carries it). */
const stepChange = (rel: string, was: string, now: string): StepPatchEntry => ({ path: rel, kind: 'file', mode: 0o644, bytes: new TextEncoder().encode(now), before: { kind: 'file', sha256: createHash('sha256').update(was).digest('hex') } });

describe('VS Code host: workspace fs', () => {
  let dir: string;
  let wfs: VscodeWorkspaceFs;

  beforeEach(() => {
    dir = tempDir('fs');
    wfs = new VscodeWorkspaceFs();
  });
  afterEach(async () => {
    await closeAllEditors();
    wfs.dispose();
    removeDir(dir);
  });

  it('reports the opened workspace folder as a real root', () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the integration run opens a workspace folder');
    assert.deepEqual(wfs.roots, [fs.realpathSync(folder.uri.fsPath)]);
  });

  it('reads unsaved editor contents rather than the disk', async () => {
    const file = path.join(dir, 'dirty.txt');
    fs.writeFileSync(file, 'on disk\n');
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(file));
    await editor.edit((b) => b.insert(new vscode.Position(0, 0), 'typed, not saved: '));
    assert.equal(editor.document.isDirty, true);

    assert.equal(await wfs.readText(file), 'typed, not saved: on disk\n');
    assert.equal(fs.readFileSync(file, 'utf8'), 'on disk\n', 'reading must not save the buffer');
  });

  it('reads the disk for a file that is not open', async () => {
    const file = path.join(dir, 'closed.txt');
    fs.writeFileSync(file, 'héllo\nwörld\n');
    assert.equal(await wfs.readText(file), 'héllo\nwörld\n');
  });

  it('writes an open file through WorkspaceEdit: disk and editor change, and Undo restores the text', async () => {
    const file = path.join(dir, 'undo.ts');
    fs.writeFileSync(file, 'export const a = 1;\n');
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(file));

    await wfs.writeText(file, 'export const a = 2;\nexport const b = 3;\n');
    assert.equal(fs.readFileSync(file, 'utf8'), 'export const a = 2;\nexport const b = 3;\n');
    assert.equal(editor.document.getText(), 'export const a = 2;\nexport const b = 3;\n');
    assert.equal(editor.document.isDirty, false, 'the write is saved');

    await vscode.window.showTextDocument(editor.document);
    await vscode.commands.executeCommand('undo');
    assert.equal(editor.document.getText(), 'export const a = 1;\n', 'Undo in the editor restores the previous text');
  });

  it('writes a file that is not open, and Undo in its editor still restores it', async () => {
    const file = path.join(dir, 'notopen.txt');
    fs.writeFileSync(file, 'before\n');
    await wfs.writeText(file, 'after\n');
    assert.equal(fs.readFileSync(file, 'utf8'), 'after\n');
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(file));
    await vscode.commands.executeCommand('undo');
    assert.equal(editor.document.getText(), 'before\n');
  });

  it('replaces unsaved changes in an open file with exactly the written text', async () => {
    const file = path.join(dir, 'dirty-write.txt');
    fs.writeFileSync(file, 'one\n');
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(file));
    await editor.edit((b) => b.insert(new vscode.Position(0, 0), 'zero\n'));
    await wfs.writeText(file, 'two\n');
    assert.equal(fs.readFileSync(file, 'utf8'), 'two\n');
    assert.equal(editor.document.getText(), 'two\n');
  });

  it('a step patch onto a file with unsaved changes in its editor is a conflict: typing and disk kept, nothing of the patch written', async () => {
    fs.writeFileSync(path.join(dir, 'typed.txt'), 'alpha\n');
    fs.writeFileSync(path.join(dir, 'other.txt'), 'beta\n');
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(path.join(dir, 'typed.txt')));
    await editor.edit((b) => b.insert(new vscode.Position(1, 0), 'typed, not saved\n'));
    assert.equal(wfs.hasUnsavedChanges(path.join(dir, 'typed.txt')), true);
    assert.equal(wfs.hasUnsavedChanges(path.join(dir, 'other.txt')), false);

    const r = await applyStepPatch({ entries: [stepChange('other.txt', 'beta\n', 'BETA\n'), stepChange('typed.txt', 'alpha\n', 'ALPHA\n')] }, { workspace: dir, fs: wfs });
    assert.deepEqual(r, { ok: false, refusals: [{ path: 'typed.txt', rule: 'unsaved changes in the editor' }] });
    assert.equal(fs.readFileSync(path.join(dir, 'typed.txt'), 'utf8'), 'alpha\n', 'the disk as it was');
    assert.equal(fs.readFileSync(path.join(dir, 'other.txt'), 'utf8'), 'beta\n', 'never half-applied');
    assert.equal(editor.document.getText(), 'alpha\ntyped, not saved\n', 'the typing as typed');
    assert.equal(editor.document.isDirty, true, 'still unsaved: nothing saved it or threw it away');
    assert.deepEqual(fs.readdirSync(dir).sort(), ['other.txt', 'typed.txt'], 'no staged file left');
  });

  it('a step patch onto a file open in a clean editor lands on disk and in the editor', async () => {
    const file = path.join(dir, 'clean.txt');
    fs.writeFileSync(file, 'alpha\n');
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(file));
    assert.equal(wfs.hasUnsavedChanges(file), false);
    const r = await applyStepPatch({ entries: [stepChange('clean.txt', 'alpha\n', 'ALPHA\n')] }, { workspace: dir, fs: wfs });
    assert.deepEqual(r, { ok: true, applied: ['clean.txt'] });
    assert.equal(fs.readFileSync(file, 'utf8'), 'ALPHA\n');
    await waitUntil(() => editor.document.getText() === 'ALPHA\n', 'the editor to show the step\'s change', 20_000);
    assert.equal(editor.document.isDirty, false);
  });

  it('creates a new file in new folders', async () => {
    const file = path.join(dir, 'a', 'b', 'new.md');
    await wfs.writeText(file, '# New\n\ntext\n');
    assert.equal(fs.readFileSync(file, 'utf8'), '# New\n\ntext\n');
    assert.equal((await wfs.stat(file))?.type, 'file');
  });

  it('deletes a file and a folder', async () => {
    const file = path.join(dir, 'gone.txt');
    fs.writeFileSync(file, 'x');
    fs.mkdirSync(path.join(dir, 'sub'));
    fs.writeFileSync(path.join(dir, 'sub', 'f'), 'y');
    await wfs.delete(file);
    await wfs.delete(path.join(dir, 'sub'));
    assert.equal(fs.existsSync(file), false);
    assert.equal(fs.existsSync(path.join(dir, 'sub')), false);
    assert.equal(await wfs.stat(file), undefined);
  });

  it('lists a folder with symlinks reported as such, and resolves real paths of missing files through links', async () => {
    fs.mkdirSync(path.join(dir, 'real'));
    fs.writeFileSync(path.join(dir, 'real', 'x.txt'), 'x');
    fs.symlinkSync(path.join(dir, 'real'), path.join(dir, 'link'));
    const entries = (await wfs.readDir(dir)).sort((a, b) => a.name.localeCompare(b.name));
    assert.deepEqual(entries, [{ name: 'link', type: 'symlink' }, { name: 'real', type: 'directory' }]);
    assert.equal(await wfs.realpath(path.join(dir, 'link', 'x.txt')), path.join(dir, 'real', 'x.txt'));
    assert.equal(await wfs.realpath(path.join(dir, 'link', 'missing', 'y.txt')), path.join(dir, 'real', 'missing', 'y.txt'));
  });
});
