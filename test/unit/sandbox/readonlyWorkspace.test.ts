/**
 * The read-only sandbox the Planner's shell uses: the command sees the workspace and may write to
 * it (build caches, test output), but every write lands in a throwaway overlay that is gone when the
 * command ends; nothing outside changes and there is no network. Real bwrap, real files.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { NodeCommandRunner } from '../../../src/host/node/nodeCommandRunner';
import { treeFingerprint } from '../security/securityKit';

describe('sandbox: a read-only workspace (writes go to a throwaway overlay)', function () {
  this.timeout(60_000);
  let ws: string;
  let out: string;
  beforeEach(() => {
    ws = fs.realpathSync(fs.mkdtempSync(path.join('/var/tmp', 'tandem-ro-ws-')));
    out = fs.realpathSync(fs.mkdtempSync(path.join('/var/tmp', 'tandem-ro-out-')));
    fs.writeFileSync(path.join(ws, 'a.txt'), 'alpha\n');
    fs.mkdirSync(path.join(ws, 'src'));
    fs.writeFileSync(path.join(ws, 'src', 'b.txt'), 'bee\n');
    fs.mkdirSync(path.join(ws, '.git', 'hooks'), { recursive: true });
    fs.writeFileSync(path.join(out, 'victim.txt'), 'outside\n');
  });
  afterEach(() => {
    fs.rmSync(ws, { recursive: true, force: true });
    fs.rmSync(out, { recursive: true, force: true });
  });

  const run = (command: string) =>
    new NodeCommandRunner().run(command, {
      cwd: ws,
      timeoutMs: 30_000,
      signal: new AbortController().signal,
      isolation: { roots: [ws], workspace: 'readonly', network: false },
    });

  it('reads the workspace, sees its own writes while it runs, and every write is gone afterwards', async () => {
    const before = treeFingerprint(ws);
    const outBefore = treeFingerprint(out);
    const r = await run(
      'cat a.txt; echo changed > a.txt; echo new > new.txt; rm src/b.txt; mkdir -p build/x; echo o > build/x/o.txt; ' +
        'mv new.txt moved.txt; cat a.txt moved.txt; ls src | wc -l; ' +
        `(echo pwned > ${out}/victim.txt) 2>&1 || true; (echo pwned > .git/hooks/pre-commit) 2>&1 || true; ls`,
    );
    assert.equal(r.exitCode, 0, r.output);
    assert.match(r.output, /^alpha\nchanged\nnew\n0\n/, 'inside, the writes were visible');
    assert.match(r.output, new RegExp(`${out}/victim.txt: Read-only file system`));
    assert.match(r.output, /\.git\/hooks\/pre-commit: Read-only file system/);
    assert.deepEqual(treeFingerprint(ws), before, 'every write to the workspace is gone');
    assert.deepEqual(treeFingerprint(out), outBefore, 'nothing outside changed');
  });

  it('removing a workspace folder works like any other write there (no I/O error), and the folder is back afterwards', async () => {
    fs.mkdirSync(path.join(ws, 'src', 'deep'));
    fs.writeFileSync(path.join(ws, 'src', 'deep', 'c.txt'), 'sea\n');
    const before = treeFingerprint(ws);
    const r = await run('rm -r src && test ! -e src && echo "src removed" && mkdir src && echo again > src/new.txt && ls src');
    assert.equal(r.exitCode, 0, r.output);
    assert.equal(r.output, 'src removed\nnew.txt\n');
    assert.deepEqual(treeFingerprint(ws), before, 'the folder and its files are all there again');
  });

  it('has no network', async () => {
    const r = await run('exec 3<>/dev/tcp/1.1.1.1/53 && echo connected');
    assert.notEqual(r.exitCode, 0);
    assert.doesNotMatch(r.output, /connected/);
  });
});
