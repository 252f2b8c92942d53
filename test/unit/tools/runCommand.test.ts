import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCommandTool } from '../../../src/core/tools/runCommand';
import { NodeCommandRunner } from '../../../src/host/node/nodeCommandRunner';
import { makeHarness, type Harness } from './toolHarness';

/** Alive = signal 0 reaches it and it is not a zombie waiting for a parent that will never reap it (PID 1 here may not). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

async function waitDead(pids: number[], ms = 3000): Promise<number[]> {
  const until = Date.now() + ms;
  let living = pids.filter(alive);
  while (living.length && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 50));
    living = living.filter(alive);
  }
  return living;
}

const pidsIn = (out: string) => [...out.matchAll(/(?:bg|fg)=(\d+)/g)].map((m) => Number(m[1]));

/** A background grandchild and a foreground grandchild, both printing their pids. */
const TREE = `sleep 300 & echo "bg=$!"; sh -c 'echo "fg=$$"; exec sleep 300'`;

describe('run_command', () => {
  let h: Harness;
  const spawned: number[] = [];
  beforeEach(() => (h = makeHarness({ maxOutputChars: 2000 })));
  afterEach(() => {
    for (const pid of spawned.splice(0)) if (alive(pid)) process.kill(pid, 'SIGKILL');
    h.cleanup();
  });

  it('asks for approval naming the command and folder, then reports exit code and output', async () => {
    const r = await h.call(runCommandTool, { command: 'echo out; echo err >&2; exit 3' });
    assert.deepEqual(h.approvals[0]!.info, {
      kind: 'command',
      command: 'echo out; echo err >&2; exit 3',
      cwd: h.ws,
      where: '.',
      sandboxed: false,
      reason: 'no sandbox: the sandbox is turned off (TANDEM_BWRAP=off)',
    });
    assert.match(r.content, /^Exit code: 3\n/);
    assert.match(r.content, /out\nerr/);
  });

  it('streams output to the card as it arrives', async () => {
    const chunks: string[] = [];
    h.ctx.onOutput = (c) => chunks.push(c);
    await h.call(runCommandTool, { command: 'echo one; sleep 0.2; echo two' });
    assert.equal(chunks.join(''), 'one\ntwo\n');
  });

  it('keeps multi-byte characters whole even when they arrive split across reads', async () => {
    // 'é' is two bytes; printf writes the first byte, pauses, then the second.
    const r = await h.call(runCommandTool, { command: "printf '\\303'; sleep 0.2; printf '\\251\\n'" });
    assert.match(r.content, /^Exit code: 0\né\n?$/);
  });

  it('runs in the workspace root', async () => {
    const r = await h.call(runCommandTool, { command: 'pwd' });
    assert.match(r.content, new RegExp(`^Exit code: 0\\n${h.ws}\\n?$`));
  });

  it('is fail-fast: a failing command stops the script, and pipefail catches a failing stage', async () => {
    const r = await h.call(runCommandTool, { command: 'false; echo after' });
    assert.match(r.content, /^Exit code: 1/);
    assert.doesNotMatch(r.content, /after/);
    const p = await h.call(runCommandTool, { command: 'false | cat; echo after' });
    assert.match(p.content, /^Exit code: 1/);
  });

  it('closes stdin so a command waiting for input does not hang', async () => {
    const r = await h.call(runCommandTool, { command: 'cat; echo done' });
    assert.match(r.content, /^Exit code: 0\ndone\n?$/);
  });

  it('runs nothing when the user rejects', async () => {
    h.approver.script = 'deny';
    const r = await h.call(runCommandTool, { command: 'touch marker' });
    assert.equal(r.isError, true);
    assert.match(r.content, /rejected/);
    assert.equal(fs.existsSync(path.join(h.ws, 'marker')), false);
  });

  it('keeps the head and tail of long output and says how much was left out', async () => {
    const r = await h.call(runCommandTool, { command: 'seq 1 100000' });
    assert.ok(r.content.length < 2300, `capped (${r.content.length} chars)`);
    assert.match(r.content, /^Exit code: 0\n1\n2\n3\n/);
    assert.match(r.content, /\n99999\n100000\n?$/);
    assert.match(r.content, /characters (of output )?left out/);
  });

  it('times out, says so, and kills the whole process tree', async () => {
    const r = await h.call(runCommandTool, { command: TREE, timeout_seconds: 1 });
    const pids = pidsIn(r.content);
    spawned.push(...pids);
    assert.equal(pids.length, 2, r.content);
    assert.equal(r.isError, true);
    assert.match(r.content, /^Timed out after 1 s; the command and everything it started were stopped\./);
    assert.deepEqual(await waitDead(pids), [], 'no process of the tree is alive');
  });

  it('Stop (abort) kills the whole process tree: background and foreground grandchildren', async () => {
    const runner = new NodeCommandRunner({ killGraceMs: 500 });
    const ac = new AbortController();
    let out = '';
    const result = runner.run(TREE, {
      cwd: h.ws,
      timeoutMs: 60_000,
      signal: ac.signal,
      onOutput: (c) => {
        out += c;
        if (pidsIn(out).length === 2) ac.abort();
      },
    });
    const res = await result;
    const pids = pidsIn(out);
    spawned.push(...pids);
    assert.equal(pids.length, 2);
    assert.equal(res.cancelled, true);
    assert.equal(res.exitCode, null);
    assert.deepEqual(await waitDead(pids), []);
  });

  it('also kills a child that ignores SIGTERM (SIGKILL after the grace period)', async () => {
    const runner = new NodeCommandRunner({ killGraceMs: 300 });
    const ac = new AbortController();
    let out = '';
    const res = await runner.run(`sh -c 'trap "" TERM; echo "fg=$$"; while :; do sleep 0.1; done'`, {
      cwd: h.ws,
      timeoutMs: 60_000,
      signal: ac.signal,
      onOutput: (c) => {
        out += c;
        if (pidsIn(out).length === 1) ac.abort();
      },
    });
    spawned.push(...pidsIn(out));
    assert.equal(res.cancelled, true);
    assert.deepEqual(await waitDead(pidsIn(out)), []);
  });

  it('stops what a finished command left running in the background', async () => {
    const r = await h.call(runCommandTool, { command: 'sleep 300 & echo "bg=$!"' });
    const pids = pidsIn(r.content);
    spawned.push(...pids);
    assert.match(r.content, /^Exit code: 0/);
    assert.deepEqual(await waitDead(pids), []);
  });
});
