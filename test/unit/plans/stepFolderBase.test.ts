/**
 * A repository's folder of step workspaces goes when its last step is removed; a step being made at
 * that moment must not fail. The graph bench on CI lost a step that way ("ENOENT: lstat
 * '/dev/shm/tandem-worktrees-0/…'": the folder was made, then removed by the other branch's step
 * before it was checked). Here a removal takes the empty folder away as fast as it can while owner
 * files are written into it, and with both kinds of step workspaces, steps are made while others go.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ownerFileIn, removeIfEmpty } from '../../../src/host/node/stepFolderBase';
import { GitStepWorkspaces } from '../../../src/host/node/gitStepWorkspaces';
import { OverlayStepWorkspaces } from '../../../src/host/node/cow/overlayStepWorkspaces';
import { commitFiles } from '../../support/gitRepo';

const repo = () => commitFiles(fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-base-race-'))), { 'a.txt': 'a\n' });

describe('step folders: a step made while another removes the empty folder', function () {
  this.timeout(120_000);

  it('every owner file is written while a removal keeps taking the empty folder away', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-base-'));
    const base = path.join(root, 'steps', 'repo');
    let stop = false;
    let removed = 0;
    // What a step's removal does last: the repository's folder goes when it is empty.
    const churn = (async () => {
      while (!stop) {
        if (await removeIfEmpty(base)) removed++;
        await new Promise((r) => setImmediate(r));
      }
    })();
    try {
      for (let i = 0; i < 400; i++) {
        const dir = path.join(base, `step${i}`);
        await ownerFileIn(dir, `${process.pid}\n`, { makeDir: true });
        assert.equal(fs.readFileSync(`${dir}.owner`, 'utf8'), `${process.pid}\n`);
        assert.ok(fs.statSync(dir).isDirectory());
        fs.rmSync(dir, { recursive: true });
        fs.rmSync(`${dir}.owner`);
      }
    } finally {
      stop = true;
      await churn;
      fs.rmSync(root, { recursive: true, force: true });
    }
    assert.ok(removed > 0, 'the removal never took the folder away: the race was not exercised');
  });

  for (const [kind, make] of [
    ['git worktree', (dir: string) => new GitStepWorkspaces({ dir })],
    ['copy-on-write', (dir: string) => new OverlayStepWorkspaces({ dir })],
  ] as const) {
    it(`${kind}: two lanes each making and removing steps, none fails`, async function () {
      const ws = repo();
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-base-dir-'));
      const steps = make(dir);
      const lane = async (label: string) => {
        for (let i = 0; i < 12; i++) {
          const s = await steps.create(ws, `${label}-${i}`);
          await s.ready;
          assert.equal(fs.readFileSync(path.join(s.root, 'a.txt'), 'utf8'), 'a\n');
          await steps.remove(s);
        }
      };
      try {
        await Promise.all([lane('step1'), lane('step3')]);
        // Every step removed: nothing left of the repository's folder.
        assert.deepEqual(fs.readdirSync(dir), []);
      } finally {
        fs.rmSync(ws, { recursive: true, force: true });
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
