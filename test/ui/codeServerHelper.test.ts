import * as assert from 'node:assert';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openWorkbench, ROOT } from './harness';

interface Server {
  baseUrl: string; dir: string; pid: number; userDataDir: string;
  workbenchUrl(folder?: string): string;
  stop(): Promise<void>;
}
type Start = (opts?: { settings?: Record<string, unknown> }) => Promise<Server>;

/** Every running process of process group `pgid` (zombies are dead, only waiting for init to reap them). */
function groupMembers(pgid: number): number[] {
  const out = execFileSync('ps', ['-eo', 'pid=,pgid=,stat='], { encoding: 'utf8' });
  return out.trim().split('\n').map((l) => l.trim().split(/\s+/))
    .filter(([, g, stat]) => Number(g) === pgid && !stat.startsWith('Z'))
    .map(([p]) => Number(p));
}

/** The group's members once it has had up to `ms` to die (SIGKILL is delivered, not instantaneous). */
async function survivors(pgid: number, ms = 3000): Promise<number[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const left = groupMembers(pgid);
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('the code-server helper (scripts/code-server.mjs)', function () {
  this.timeout(90_000);
  let startCodeServer: Start;
  before(async () => {
    ({ startCodeServer } = (await import(pathToFileURL(join(ROOT, 'scripts', 'code-server.mjs')).href)) as { startCodeServer: Start });
  });

  it('starts an isolated server that answers, and stop() kills its whole process group and removes its folder', async () => {
    const server = await startCodeServer({ settings: { 'tandem.maxTokens': 123 } });
    let stopped = false;
    try {
      const health = await fetch(`${server.baseUrl}/healthz`);
      assert.strictEqual(health.status, 200);
      // The workbench page itself is served (what a browser opens).
      const page = await fetch(server.workbenchUrl(ROOT));
      assert.strictEqual(page.status, 200);
      // Its own user settings, with ours merged in, in its own temp folder.
      const settings = JSON.parse(readFileSync(join(server.userDataDir, 'User', 'settings.json'), 'utf8')) as Record<string, unknown>;
      assert.strictEqual(settings['chat.disableAIFeatures'], true);
      assert.strictEqual(settings['tandem.maxTokens'], 123);
      assert.ok(server.userDataDir.startsWith(server.dir));
      // Detached: it leads its own process group, which is what stop() kills.
      assert.ok(groupMembers(server.pid).includes(server.pid), 'the server leads its own process group');

      await server.stop();
      stopped = true;
      assert.deepStrictEqual(await survivors(server.pid), [], 'processes of the group survived stop()');
      assert.strictEqual(existsSync(server.dir), false, 'the temp folder is still there');
      await assert.rejects(fetch(`${server.baseUrl}/healthz`, { signal: AbortSignal.timeout(2000) }));
    } finally {
      if (!stopped) await server.stop();
    }
  });

  it('leaves no extension host or watcher behind once a workbench has run in it', async () => {
    const wb = await openWorkbench();
    const { pid, dir } = wb.server;
    let closed = false;
    try {
      await wb.openTandemView();
      // The workbench has spawned the extension host (and its helpers) inside the server's group.
      assert.ok(groupMembers(pid).length > 1, `only ${groupMembers(pid).length} process(es) in the group`);
      await wb.close();
      closed = true;
      const left = await survivors(pid);
      assert.deepStrictEqual(left, [], `processes of the group survived close(): ${left.length ? execFileSync('ps', ['-o', 'pid,stat,cmd', '-p', left.join(',')], { encoding: 'utf8' }) : ''}`);
      assert.strictEqual(existsSync(dir), false, 'the temp folder is still there');
    } finally {
      if (!closed) await wb.close();
    }
  });
});
