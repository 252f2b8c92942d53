import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CheckpointStore } from '../../../src/core/checkpoints/checkpointStore';
import { NodeWorkspaceFs } from '../../../src/host/node/nodeWorkspaceFs';

describe('checkpoints: keep pre-images, revert, refuse after user edits', () => {
  let tmp: string;
  let ws: string;
  let cpDir: string;
  let wfs: NodeWorkspaceFs;
  const file = (rel: string) => path.join(ws, rel);
  const read = (rel: string) => fs.readFileSync(file(rel), 'utf8');

  beforeEach(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-cp-')));
    ws = path.join(tmp, 'ws');
    cpDir = path.join(tmp, 'store', 'checkpoints');
    fs.mkdirSync(path.join(ws, 'src'), { recursive: true });
    fs.writeFileSync(file('src/a.ts'), 'export const a = 1;\n');
    fs.writeFileSync(file('notes.md'), '# notes\n');
    wfs = new NodeWorkspaceFs([ws]);
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  /** What a tool does: beforeChange, change the file, then the loop reports the call finished. */
  async function agentWrites(cp: CheckpointStore, callId: string, rel: string, text: string | null) {
    await cp.beforeChange(file(rel), callId);
    if (text === null) fs.rmSync(file(rel));
    else fs.writeFileSync(file(rel), text);
    await cp.afterCall(callId);
  }

  it('reverts one tool call, and the whole task in reverse order (edit, create, delete)', async () => {
    const cp = new CheckpointStore(cpDir, wfs);
    await agentWrites(cp, 'c1', 'src/a.ts', 'export const a = 2;\n');
    await agentWrites(cp, 'c2', 'src/new.ts', 'new file\n');
    await agentWrites(cp, 'c3', 'notes.md', null);
    await agentWrites(cp, 'c4', 'src/a.ts', 'export const a = 3;\n');
    assert.deepEqual(cp.touchedFiles(), [
      { path: 'src/a.ts', change: 'modified' },
      { path: 'src/new.ts', change: 'created' },
      { path: 'notes.md', change: 'deleted' },
    ]);

    // c1's file was changed again by c4: reverting c1 alone is refused, nothing changes.
    const r1 = await cp.revertCall('c1');
    assert.equal(r1.ok, false);
    assert.match(r1.message, /changed again by a later agent call \(c4\)/);
    assert.equal(read('src/a.ts'), 'export const a = 3;\n');

    // The deleted file comes back.
    const r3 = await cp.revertCall('c3');
    assert.equal(r3.ok, true);
    assert.equal(read('notes.md'), '# notes\n');
    assert.match(r3.message, /notes\.md restored \(the agent had deleted it\)/);
    assert.match((await cp.revertCall('c3')).message, /already reverted/);

    const all = await cp.revertTask();
    assert.equal(all.ok, true, all.message);
    assert.equal(read('src/a.ts'), 'export const a = 1;\n');
    assert.equal(fs.existsSync(file('src/new.ts')), false);
    assert.equal(read('notes.md'), '# notes\n');
    assert.deepEqual(cp.touchedFiles(), []);
  });

  it('refuses with a clear message and the diff when the user edited the file since, changing nothing', async () => {
    const cp = new CheckpointStore(cpDir, wfs);
    await agentWrites(cp, 'c1', 'src/a.ts', 'export const a = 2;\n');
    await agentWrites(cp, 'c2', 'src/new.ts', 'new\n');
    fs.writeFileSync(file('src/a.ts'), 'export const a = 2; // user tweak\n');
    const r = await cp.revertCall('c1');
    assert.equal(r.ok, false);
    if (r.ok) return;
    assert.match(r.message, /^Nothing was reverted/);
    assert.match(r.message, /src\/a\.ts was edited since the agent's change/);
    assert.match(r.conflicts[0].diff!, /-export const a = 2;\n\+export const a = 2; \/\/ user tweak/);
    assert.equal(read('src/a.ts'), 'export const a = 2; // user tweak\n');
    // The whole task is refused as a whole too: the new file stays.
    const t = await cp.revertTask();
    assert.equal(t.ok, false);
    assert.equal(read('src/new.ts'), 'new\n');
    // A file the agent created and the user then deleted: refused as well.
    fs.rmSync(file('src/new.ts'));
    const r2 = await cp.revertCall('c2');
    assert.equal(r2.ok, false);
    assert.match(r2.message, /src\/new\.ts was deleted since/);
  });

  it('refuses a whole-task revert when the user edited between two agent changes', async () => {
    const cp = new CheckpointStore(cpDir, wfs);
    await agentWrites(cp, 'c1', 'src/a.ts', 'v2\n');
    fs.writeFileSync(file('src/a.ts'), 'v2 + user\n');
    await agentWrites(cp, 'c2', 'src/a.ts', 'v3\n');
    const r = await cp.revertTask();
    assert.equal(r.ok, false);
    assert.match(r.message, /edited between two of the agent's changes/);
    assert.equal(read('src/a.ts'), 'v3\n');
    // Undoing just the last change is still fine and gives the user's version back.
    assert.equal((await cp.revertCall('c2')).ok, true);
    assert.equal(read('src/a.ts'), 'v2 + user\n');
  });

  it('caps per file: a big file is not kept and its change is marked not revertible', async () => {
    const cp = new CheckpointStore(cpDir, wfs, { maxFileBytes: 1000, maxTaskBytes: 1_000_000 });
    fs.writeFileSync(file('big.txt'), 'x'.repeat(5000));
    const note = await cp.beforeChange(file('big.txt'), 'c1');
    assert.match(note!, /Not revertible: big\.txt is 5 KB, over the 1 KB checkpoint cap per file/);
    fs.writeFileSync(file('big.txt'), 'small');
    await cp.afterCall('c1');
    assert.equal(cp.callState('c1').revertible, false);
    const r = await cp.revertCall('c1');
    assert.equal(r.ok, false);
    assert.equal(read('big.txt'), 'small');
    assert.equal(fs.existsSync(path.join(cpDir, 'blobs')) ? fs.readdirSync(path.join(cpDir, 'blobs')).every((b) => fs.statSync(path.join(cpDir, 'blobs', b)).size < 1000) : true, true);
  });

  it('caps per task, keeps each content once, and forgets calls that changed nothing', async () => {
    const cp = new CheckpointStore(cpDir, wfs, { maxFileBytes: 10_000, maxTaskBytes: 3000 });
    fs.writeFileSync(file('one.txt'), '1'.repeat(2000));
    fs.writeFileSync(file('two.txt'), '2'.repeat(2000));
    assert.equal(await cp.beforeChange(file('one.txt'), 'c1'), undefined);
    const note = await cp.beforeChange(file('two.txt'), 'c2');
    assert.match(note!, /this task's checkpoints reached their 3 KB cap, so two\.txt was not kept/);
    // A call whose tool failed before writing leaves no entry.
    await cp.beforeChange(file('notes.md'), 'c3');
    await cp.afterCall('c3');
    assert.equal(cp.callState('c3').changed, false);
  });

  it('survives a restart: entries and blobs are reloaded from disk', async () => {
    const cp = new CheckpointStore(cpDir, wfs);
    await agentWrites(cp, 'c1', 'src/a.ts', 'changed\n');
    await agentWrites(cp, 'c2', 'notes.md', null);
    fs.appendFileSync(path.join(cpDir, 'entries.jsonl'), '{"k":"pre","e":{"seq":99,"cal');
    const again = new CheckpointStore(cpDir, wfs);
    assert.equal(again.entries().length, 2);
    const r = await again.revertTask();
    assert.equal(r.ok, true, r.message);
    assert.equal(read('src/a.ts'), 'export const a = 1;\n');
    assert.equal(read('notes.md'), '# notes\n');
  });
});
