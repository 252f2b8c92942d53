import * as assert from 'node:assert/strict';
import { readFileTool } from '../../../src/core/tools/readFile';
import { listFilesTool } from '../../../src/core/tools/listFiles';
import { findFilesTool } from '../../../src/core/tools/findFiles';
import { editFileTool } from '../../../src/core/tools/editFile';
import { makeHarness, type Harness } from './toolHarness';

describe('ignore policy', () => {
  let h: Harness;
  beforeEach(() => {
    h = makeHarness();
    h.write('.gitignore', '.env\n*.log\nsecrets/\n');
    h.write('.env', 'API_KEY=sk-live-123\n');
    h.write('app.log', 'log line\n');
    h.write('keep.log', 'kept log\n');
    h.write('secrets/a.txt', 'top secret\n');
    h.write('src/main.ts', 'main\n');
    h.write('src/.gitignore', 'local.ts\n');
    h.write('src/local.ts', 'local only\n');
    h.write('.tandemignore', '!keep.log\ninternal/\n');
    h.write('internal/notes.md', 'internal\n');
  });
  afterEach(() => h.cleanup());

  it('refuses to read a file listed in .gitignore (e.g. .env), without leaking it', async () => {
    const r = await h.call(readFileTool, { path: '.env' });
    assert.equal(r.isError, true);
    assert.match(r.content, /\.env is excluded by the workspace's ignore rules/);
    assert.doesNotMatch(r.content, /sk-live/);
    assert.equal((await h.call(readFileTool, { path: 'secrets/a.txt' })).isError, true);
    assert.equal((await h.call(readFileTool, { path: 'secrets' })).isError, true);
    assert.equal((await h.call(readFileTool, { path: '.git/config' })).isError !== false, true);
  });

  it('applies nested .gitignore files and .tandemignore (which can re-include)', async () => {
    assert.equal((await h.call(readFileTool, { path: 'src/local.ts' })).isError, true);
    assert.equal((await h.call(readFileTool, { path: 'internal/notes.md' })).isError, true);
    assert.equal((await h.call(readFileTool, { path: 'app.log' })).isError, true);
    assert.equal((await h.call(readFileTool, { path: 'keep.log' })).content, '1\tkept log');
    assert.equal((await h.call(readFileTool, { path: 'src/main.ts' })).content, '1\tmain');
  });

  it('leaves ignored files out of listings and finds', async () => {
    const list = await h.call(listFilesTool, { recursive: true });
    assert.deepEqual(list.content.split('\n'), ['.gitignore', '.tandemignore', 'keep.log', 'src/', 'src/.gitignore', 'src/main.ts']);
    const found = await h.call(findFilesTool, { pattern: '*' });
    assert.deepEqual(found.content.split('\n'), ['.gitignore', '.tandemignore', 'keep.log', 'src/.gitignore', 'src/main.ts']);
  });

  it('refuses to edit an ignored file (a failed match would show its lines)', async () => {
    const r = await h.call(editFileTool, { path: '.env', edits: [{ old_text: 'API_KEY=x', new_text: 'y' }] });
    assert.equal(r.isError, true);
    assert.doesNotMatch(r.content, /sk-live/);
  });

  it('sees a .gitignore change at the next call', async () => {
    h.write('.gitignore', '*.log\n');
    assert.equal((await h.call(readFileTool, { path: '.env' })).content, '1\tAPI_KEY=sk-live-123');
  });
});
