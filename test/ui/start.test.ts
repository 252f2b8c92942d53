import * as assert from 'node:assert';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './harness';

/** Pids of running processes whose command line contains `needle` (zombies excluded). */
function processesWith(needle: string): number[] {
  const out = execFileSync('ps', ['-eo', 'pid=,stat=,args='], { encoding: 'utf8' });
  return out.split('\n').map((l) => l.trim().match(/^(\d+)\s+(\S+)\s+(.*)$/)).filter((m): m is RegExpMatchArray => !!m)
    .filter((m) => !m[2].startsWith('Z') && m[3].includes(needle)).map((m) => Number(m[1]));
}

async function until<T>(what: string, fn: () => T | undefined, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The README's first command, `npm start` (scripts/start.mjs), end to end. */
describe('npm start', function () {
  this.timeout(120_000);
  let child: ChildProcess | undefined;
  let profile: string | undefined;

  after(() => {
    // Whatever happened, nothing of it may outlive the test: its own process group goes.
    if (child?.pid) { try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ } }
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  it('prints a workbench URL with Tandem loaded from source, serves it, and Ctrl-C stops everything', async () => {
    profile = mkdtempSync(join(tmpdir(), 'tandem-start-profile-'));
    child = spawn(process.execPath, ['scripts/start.mjs'], {
      cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, TANDEM_START_PROFILE: profile },
    });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => { out += d.toString(); });
    child.stderr!.on('data', (d: Buffer) => { out += d.toString(); });
    const exited = new Promise<number | string>((r) => child!.once('exit', (code, sig) => r(code ?? sig ?? -1)));

    const url = await until('the URL line', () => /^\s*(http:\/\/127\.0\.0\.1:\d+\/\?folder=\S+)$/m.exec(out)?.[1], 90_000);
    const u = new URL(url);
    assert.strictEqual(u.searchParams.get('folder'), join(ROOT, 'sample-workspace'));
    const payload = JSON.parse(u.searchParams.get('payload') ?? '[]') as [string, string][];
    assert.deepStrictEqual(payload.find(([k]) => k === 'extensionDevelopmentPath')?.[1], `vscode-remote://${u.host}${ROOT}`);
    const page = await fetch(url);
    assert.strictEqual(page.status, 200);
    assert.match(await page.text(), /workbench/i);
    assert.ok(processesWith(`--bind-addr ${u.host}`).length > 0, 'the code-server process is running');

    process.kill(child.pid!, 'SIGINT');
    const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('still running'), 15_000))]);
    assert.notStrictEqual(code, 'still running', `npm start did not stop on Ctrl-C:\n${out}`);
    await until('the server to go', () => (processesWith(`--bind-addr ${u.host}`).length === 0 ? true : undefined), 5_000);
    await assert.rejects(fetch(`${u.origin}/healthz`, { signal: AbortSignal.timeout(2000) }));
    await until('the rebuild watcher to go', () => (processesWith('esbuild.mjs --watch').filter((p) => {
      try { return execFileSync('ps', ['-o', 'pgid=', '-p', String(p)], { encoding: 'utf8' }).trim() === String(child!.pid); } catch { return false; }
    }).length === 0 ? true : undefined), 5_000);
  });
});
