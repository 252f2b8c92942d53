/**
 * Small stand-in tools for loop tests: real files through the real WorkspacePaths, but minimal
 * behaviour, so the loop's rules (dispatch checks, approval, concurrency) are tested on their own.
 */
import { z } from 'zod';
import type { Tool, ToolDisplay } from '../../src/core/tools/tool';

/** A stand-in's display: its card's headline (and summary) is the one line given. */
export function says<I>(line: (i: I) => string): ToolDisplay<I> {
  return { kind: 'other', title: 'Test tool', headline: (i) => ({ verb: line(i) }) };
}

export const fakeRead: Tool<{ path: string }> = {
  name: 'read_file',
  description: 'Read a file.',
  input: z.object({ path: z.string() }),
  permissions: ['read'],
  readOnly: true,
  display: says((i) => `read ${i.path}`),
  async run(i, ctx) {
    const r = await ctx.paths.resolve(i.path);
    if (!r.inside) return { content: `${i.path} is outside the workspace`, isError: true };
    const st = await ctx.host.fs.stat(r.real);
    if (!st) return { content: `${i.path} does not exist`, isError: true };
    return { content: await ctx.host.fs.readText(r.real) };
  },
};

export const fakeWrite: Tool<{ path: string; content: string }> = {
  name: 'write_file',
  description: 'Write a whole file.',
  input: z.object({ path: z.string(), content: z.string() }),
  permissions: ['write'],
  async permissionsFor(i, ctx) {
    const r = await ctx.paths.resolve(i.path);
    return (await ctx.host.fs.stat(r.real)) ? ['write'] : ['create'];
  },
  readOnly: false,
  display: says((i) => `write ${i.path}`),
  async run(i, ctx) {
    const r = await ctx.paths.resolve(i.path);
    const exists = !!(await ctx.host.fs.stat(r.real));
    const d = await ctx.approve({
      info: r.inside ? { kind: exists ? 'edit' : 'create', path: r.rel, real_path: r.real } : { kind: 'outside_workspace', path: i.path, real_path: r.real },
      proposedText: i.content,
    });
    if (!d.approved) return { content: `Not written: ${d.reason ?? 'rejected'}`, isError: true };
    await ctx.host.fs.writeText(r.real, d.editedText ?? i.content);
    return { content: `wrote ${i.content.length} chars to ${r.rel ?? r.real}` };
  },
};

function writeLike(name: string, permissions: ('write' | 'delete' | 'execute')[]): Tool<Record<string, unknown>> {
  return {
    name,
    description: `${name} (fake)`,
    input: z.record(z.string(), z.unknown()),
    permissions: ['read', ...permissions],
    readOnly: false,
    display: says(() => name),
    async run() {
      throw new Error(`${name} must never run in this test`);
    },
  };
}

export const fakeEdit = writeLike('edit_file', ['write']);
export const fakePatch = writeLike('apply_patch', ['write']);
export const fakeDelete = writeLike('delete_file', ['delete']);

export const fakeCommand: Tool<{ command: string }> = {
  name: 'run_command',
  description: 'Run a shell command.',
  input: z.object({ command: z.string() }),
  permissions: ['execute'],
  readOnly: false,
  display: says((i) => `$ ${i.command}`),
  async run(i, ctx) {
    const d = await ctx.approve({ info: { kind: 'command', command: i.command, cwd: ctx.host.fs.roots[0] } });
    if (!d.approved) return { content: `Not run: ${d.reason ?? 'rejected'}`, isError: true };
    const r = await ctx.host.commands.run(i.command, { cwd: ctx.host.fs.roots[0]!, timeoutMs: ctx.settings.commandTimeoutMs, signal: ctx.signal });
    return { content: `exit ${r.exitCode}\n${r.output}`, isError: r.exitCode !== 0 };
  },
};

/**
 * Read-only; each call waits (up to 1 s) until `expected` calls are running at once. Run
 * concurrently they all meet; run one after another, each is alone.
 */
export function rendezvous(expected: number): Tool<{ tag: string }> & { maxSeen: () => number } {
  let active = 0;
  let maxSeen = 0;
  return {
    name: 'rendezvous',
    description: 'Wait for the others.',
    input: z.object({ tag: z.string() }),
    permissions: ['read'],
    readOnly: true,
    display: says((i) => `meet ${i.tag}`),
    maxSeen: () => maxSeen,
    async run(i) {
      active++;
      const deadline = Date.now() + 1000;
      while (active < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      maxSeen = Math.max(maxSeen, active);
      // Let the others see this one before it leaves.
      await new Promise((r) => setTimeout(r, 20));
      active--;
      return { content: `${i.tag} met ${maxSeen}` };
    },
  };
}

/** A read-only tool that always fails (for the consecutive-errors guard). */
export const failingTool: Tool<Record<string, unknown>> = {
  name: 'flaky',
  description: 'Always fails.',
  input: z.record(z.string(), z.unknown()),
  permissions: ['read'],
  readOnly: true,
  display: says(() => 'flaky'),
  async run() {
    return { content: 'flaky failed', isError: true };
  },
};

/** A read-only tool that returns a lot of text (for the result cap). */
export const bigTool: Tool<{ n: number }> = {
  name: 'big',
  description: 'Returns n characters.',
  input: z.object({ n: z.number().int() }),
  permissions: ['read'],
  readOnly: true,
  display: says((i) => `big ${i.n}`),
  async run(i) {
    return { content: 'A'.repeat(i.n / 2) + 'B'.repeat(i.n / 2) };
  },
};

/** Waits until the signal aborts (for Stop tests); reports it was cancelled. */
export const waitTool: Tool<Record<string, unknown>> = {
  name: 'wait_forever',
  description: 'Waits.',
  input: z.record(z.string(), z.unknown()),
  permissions: ['read'],
  readOnly: true,
  display: says(() => 'wait'),
  async run(_i, ctx) {
    await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
    return { content: 'cancelled', isError: true };
  },
};

export const FAKE_WORKSPACE_TOOLS = [fakeRead, fakeWrite, fakeEdit, fakePatch, fakeDelete, fakeCommand];
