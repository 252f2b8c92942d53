import * as z from 'zod';
import type { ApprovalInfo, CommandExit } from '../../protocol';
import type { CommandResult } from '../ports/ports';
import { rejectionText } from '../text/rejectionText';
import { capHeadTail } from '../text/truncate';
import { changedBetween, snapshotWorkspace } from '../workspace/workspaceSnapshot';
import { ToolError } from './tool';
import { defineTool, displayPath, resolvePath } from './toolSupport';

const input = z.object({
  command: z.string().min(1),
  cwd: z.string().optional(),
  timeout_seconds: z.number().int().min(1).max(3600).optional(),
  network: z.boolean().optional().describe('true if it needs the network (installs, downloads)'),
});
type Input = z.infer<typeof input>;

/** How the command ended, in the words its card uses. */
export function commandExit(res: CommandResult): CommandExit {
  if (res.timedOut) return { outcome: 'timed_out', code: res.exitCode };
  if (res.cancelled || res.exitCode === null) return { outcome: 'killed', code: res.exitCode };
  return { outcome: res.exitCode === 0 ? 'success' : 'failed', code: res.exitCode };
}

export const runCommandTool = defineTool<Input>({
  name: 'run_command',
  description:
    'Run a bash command (-e -o pipefail, no stdin) in the workspace; returns the exit code and output (head and tail if long). ' +
    'Sandboxed where possible: only the workspace is writable (not .git or files that run code), no network unless network is set. Needs approval.',
  input,
  permissions: ['execute'],
  readOnly: false,
  display: { kind: 'command', title: 'Run command', headline: (i) => ({ verb: 'Run', done: 'Ran', detail: i.command, code: true, summary: `$ ${i.command.length > 120 ? `${i.command.slice(0, 120)}…` : i.command}` }) },
  async run(i, ctx) {
    let cwd = ctx.paths.roots[0];
    if (!cwd) throw new ToolError('No workspace folder is open.');
    // Where it runs as the user knows the folder: a step run beside others works in a copy of the
    // workspace elsewhere (a temp folder), whose absolute path means nothing to them.
    let where = '.';
    if (i.cwd) {
      const r = await resolvePath(ctx, i.cwd, 'write');
      const st = await ctx.host.fs.stat(r.real);
      if (!st || st.type !== 'directory') throw new ToolError(`${displayPath(ctx, r)} is not a folder.`);
      cwd = r.real;
      where = displayPath(ctx, r) || '.';
    }
    const sandbox = (await ctx.host.commands.sandboxStatus?.()) ?? { available: false as const, why: 'this host has no command sandbox' };
    // A read-only shell exists only inside the sandbox: without one, the role runs nothing.
    const readOnly = ctx.role.shell === 'readonly';
    if (readOnly && !sandbox.available) {
      throw new ToolError(`The ${ctx.role.label}'s shell is read-only and needs the command sandbox, which is unavailable here (${sandbox.why}). Nothing was run.`);
    }
    if (readOnly && i.network) {
      throw new ToolError(`The ${ctx.role.label}'s read-only shell has no network. Nothing was run.`);
    }
    const network = sandbox.available && !sandbox.networkByDefault && i.network === true;
    const info: ApprovalInfo = readOnly
      ? { kind: 'command', command: i.command, cwd, where, sandboxed: true, reason: 'read-only shell: whatever it writes is discarded; no network' }
      : sandbox.available
      ? { kind: 'command', command: i.command, cwd, where, sandboxed: true, ...(network ? { network: true, reason: 'this command needs the network' } : {}) }
      : { kind: 'command', command: i.command, cwd, where, sandboxed: false, reason: `no sandbox: ${sandbox.why}` };
    const decision = await ctx.approve({ info });
    if (!decision.approved) {
      return { content: rejectionText(decision, `running \`${i.command}\``, 'Nothing was run.'), isError: true };
    }
    const timeoutMs = i.timeout_seconds ? i.timeout_seconds * 1000 : ctx.settings.commandTimeoutMs;
    const isolation = !sandbox.available
      ? undefined
      : readOnly
        ? { roots: ctx.paths.roots, workspace: 'readonly' as const, network: false }
        : { roots: ctx.paths.roots, workspace: 'writable' as const, network: sandbox.networkByDefault || network };
    // While a plan step runs, what the command changed counts as the step's change, whatever the
    // command line names (`sed -i … a.txt b.txt` changes b.txt too): the workspace before and after.
    const planning = ctx.planning;
    const watch = !readOnly && planning?.execution && planning.noteCommandChanges ? await snapshotWorkspace(ctx.host.fs, ctx.paths.roots) : undefined;
    const res = await ctx.host.commands.run(i.command, { cwd, timeoutMs, signal: ctx.signal, onOutput: ctx.onOutput?.bind(ctx), ...(isolation ? { isolation } : {}) });
    if (watch) {
      const changed = changedBetween(watch.files, (await snapshotWorkspace(ctx.host.fs, ctx.paths.roots)).files);
      if (changed.length) await planning!.noteCommandChanges!(changed);
    }
    const output = capHeadTail(res.output, ctx.settings.maxOutputChars);
    let status: string;
    if (res.timedOut) status = `Timed out after ${Math.round(timeoutMs / 1000)} s; the command and everything it started were stopped.`;
    else if (res.cancelled) status = 'Stopped by the user; the command and everything it started were killed.';
    else status = `Exit code: ${res.exitCode ?? 'none (killed by a signal)'}`;
    const body = (output.trim() ? `\n${output}` : '\n(no output)') + (readOnly ? '\n(read-only shell: whatever the command wrote is gone)' : '');
    const notes = res.sandboxNotes?.length ? `\n[sandbox] ${res.sandboxNotes.join('\n[sandbox] ')}` : '';
    return { content: `${status}${body}${notes}`, isError: res.timedOut || res.cancelled, exit: commandExit(res) };
  },
});
