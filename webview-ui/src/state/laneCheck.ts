import type { ChatCard } from './localCards';
import { firstFailureLine } from '../../../src/protocol/failureLine';

/** A plan step's check as its lane says it: the command and its verdict, the output a click away. */
export interface LaneCheck {
  /** The check's card, folded into the lane. */
  card_id: string;
  command: string;
  passed: boolean;
  /**
   * How a failed check ended ("exit 1", "timed out") and the first line of its output that says
   * why: only while nothing later says it (the run's summary quotes both once it ends on this step).
   */
  how?: string;
  why?: string;
  output: string;
}

/**
 * The check card (`check_step`) as its lane shows it, once it ran to a verdict (passed or failed);
 * a check waiting for approval, running, rejected or stopped stays a card of its own (it asks
 * something, or it is the user's own decision). The card's text is "Exit code: N" (or "Timed out.")
 * and a newline, then the output (planRuns/runStepCheck.ts). Read defensively: snapshot cards may
 * not be validated yet.
 */
export function laneCheckOf(card: ChatCard, reasonSaid: boolean): LaneCheck | undefined {
  const c = card as unknown as { kind?: unknown; id?: unknown; status?: unknown; args?: { command?: unknown }; result?: unknown; error?: unknown };
  if (c.kind !== 'tool_call' || typeof c.id !== 'string' || (c.status !== 'done' && c.status !== 'error')) return undefined;
  const command = typeof c.args?.command === 'string' ? c.args.command : undefined;
  const text = c.status === 'done' ? c.result : c.error;
  if (command === undefined || typeof text !== 'string') return undefined;
  const nl = text.indexOf('\n');
  const head = nl < 0 ? text : text.slice(0, nl);
  const output = nl < 0 ? '' : text.slice(nl + 1);
  const passed = c.status === 'done';
  if (passed || reasonSaid) return { card_id: c.id, command, passed, output };
  const code = /^Exit code: (\d+)/.exec(head)?.[1];
  const how = code !== undefined ? `exit ${code}` : /^Timed out/.test(head) ? 'timed out' : /killed/.test(head) ? 'killed' : undefined;
  const why = firstFailureLine(output);
  return { card_id: c.id, command, passed, output, ...(how ? { how } : {}), ...(why ? { why } : {}) };
}
