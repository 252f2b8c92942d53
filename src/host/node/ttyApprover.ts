import type { ApprovalDecision, ApprovalRequest, Approver } from '../../core/ports/ports';
import type { TerminalPrompt } from './terminalPrompt';

function describe(req: ApprovalRequest): string {
  const i = req.info;
  switch (i.kind) {
    case 'command':
      // The reason says what is special about it: no sandbox here, or it asks for the network.
      // Where it runs as the workspace names it (a step beside others runs in a copy elsewhere).
      return `run: ${i.command}${i.where !== undefined ? (i.where === '.' ? '' : `\n  in ${i.where}`) : i.cwd ? `\n  in ${i.cwd}` : ''}${i.reason ? `\n  (${i.reason})` : ''}`;
    case 'outside_workspace':
      return `${req.tool} OUTSIDE the workspace: ${i.real_path ?? i.path}${i.reason ? ` (${i.reason})` : ''}`;
    case 'delete':
      return `delete ${i.path ?? i.real_path}`;
    case 'create':
      return `create ${i.path ?? i.real_path}${i.added !== undefined ? ` (+${i.added})` : ''}`;
    case 'edit':
      return `edit ${i.path ?? i.real_path}${i.added !== undefined ? ` (+${i.added} -${i.removed ?? 0})` : ''}`;
    case 'mcp':
      return `MCP tool ${i.tool_name ?? req.tool} (server ${i.server ?? '?'}) with ${i.arguments ?? '{}'}`;
    default:
      return `${req.tool}`;
  }
}

/** Asks y/n on the terminal, showing the diff for edits. Anything but y/yes is a no. */
export class TtyApprover implements Approver {
  /** One question on the terminal at a time: plan steps running side by side may ask at once. */
  private turn: Promise<unknown> = Promise.resolve();

  constructor(private readonly prompt: TerminalPrompt, private readonly out: (text: string) => void = (t) => process.stderr.write(t)) {}

  request(req: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
    const asked = this.turn.then(() => this.ask(req, signal));
    this.turn = asked.catch(() => undefined);
    return asked;
  }

  private async ask(req: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
    // Which step asks, when several run side by side.
    if (req.info.step !== undefined) this.out(`[step ${req.info.step}]\n`);
    if (req.info.diff) this.out(`${req.info.diff.trimEnd()}\n`);
    if (req.info.amendment) return this.amendment(req, signal);
    let answer: string;
    try {
      answer = await this.prompt.ask(`Allow ${describe(req)}? [y/N] `, signal);
    } catch (err) {
      return { approved: false, reason: err instanceof Error ? err.message : 'not approved' };
    }
    return /^y(es)?$/i.test(answer) ? { approved: true } : { approved: false, reason: 'the user said no' };
  }

  /** An action outside the plan step's scope: allow once, add it to the plan, or (anything else) reject. */
  private async amendment(req: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
    const a = req.info.amendment!;
    const canAdd = !!(a.add.files?.length || a.add.commands?.length);
    let answer: string;
    try {
      answer = await this.prompt.ask(`Amendment: ${a.text}.\n  ${describe(req)}\n  [o]nce${canAdd ? ' / [a]dd to the plan' : ''} / [N]o? `, signal);
    } catch (err) {
      return { approved: false, reason: err instanceof Error ? err.message : 'not approved' };
    }
    if (/^o(nce)?$/i.test(answer)) return { approved: true };
    if (canAdd && /^a(dd)?$/i.test(answer)) return { approved: true, addToPlan: true };
    return { approved: false, reason: 'the user rejected the amendment' };
  }
}
