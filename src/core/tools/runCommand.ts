import { z } from 'zod';
import { rejectionText } from '../rejectionText';
import { capHeadTail } from '../truncate';
import { ToolError } from './tool';
import { defineTool, displayPath, resolvePath } from './toolSupport';

const input = z.object({
  command: z.string().min(1).describe('Shell command (bash, fail-fast)'),
  cwd: z.string().optional().describe('Folder to run in (default: workspace root)'),
  timeout_seconds: z.number().int().min(1).max(3600).optional(),
});
type Input = z.infer<typeof input>;

export const runCommandTool = defineTool<Input>({
  name: 'run_command',
  description: 'Run a shell command in the workspace (bash -e -o pipefail; stdin closed). Returns the exit code and output (long output keeps head and tail). Needs approval.',
  input,
  permissions: ['execute'],
  readOnly: false,
  summarize: (i) => `$ ${i.command.length > 120 ? `${i.command.slice(0, 120)}…` : i.command}`,
  async run(i, ctx) {
    let cwd = ctx.paths.roots[0];
    if (!cwd) throw new ToolError('No workspace folder is open.');
    if (i.cwd) {
      const r = await resolvePath(ctx, i.cwd, 'write');
      const st = await ctx.host.fs.stat(r.real);
      if (!st || st.type !== 'directory') throw new ToolError(`${displayPath(ctx, r)} is not a folder.`);
      cwd = r.real;
    }
    const decision = await ctx.approve({ info: { kind: 'command', command: i.command, cwd } });
    if (!decision.approved) {
      return { content: rejectionText(decision, `running \`${i.command}\``, 'Nothing was run.'), isError: true };
    }
    const timeoutMs = i.timeout_seconds ? i.timeout_seconds * 1000 : ctx.settings.commandTimeoutMs;
    const res = await ctx.host.commands.run(i.command, { cwd, timeoutMs, signal: ctx.signal, onOutput: ctx.onOutput?.bind(ctx) });
    const output = capHeadTail(res.output, ctx.settings.maxOutputChars);
    let status: string;
    if (res.timedOut) status = `Timed out after ${Math.round(timeoutMs / 1000)} s; the command and everything it started were stopped.`;
    else if (res.cancelled) status = 'Stopped by the user; the command and everything it started were killed.';
    else status = `Exit code: ${res.exitCode ?? 'none (killed by a signal)'}`;
    const body = output.trim() ? `\n${output}` : '\n(no output)';
    return { content: `${status}${body}`, isError: res.timedOut || res.cancelled };
  },
});
