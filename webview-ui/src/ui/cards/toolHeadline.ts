/**
 * What a tool call did, in words, for the head of its card: "Read src/cart.ts", "Ran npm test —
 * exit 1". The words are the tool's own (its display, carried on the card: see
 * src/protocol/toolDisplay.ts); this only picks the tense and adds how a command ended. The path
 * (when there is one) is shown apart so it can be a link; the tool's raw name is secondary.
 */
import type { ToolCallCard } from '../../../../src/protocol';
import { toolCallDisplay } from '../../../../src/protocol/toolCallDisplay';

export interface Headline {
  verb: string;
  /** A workspace path the card is about (opens in the editor). */
  path?: string;
  /** Words after the path or verb: a pattern, a command, a line range. */
  rest?: string;
  /** Shown as code (a command, a pattern). */
  restIsCode?: boolean;
  /** After a dash: how a command ended when it did not succeed ("exit 1"). */
  suffix?: string;
}

export function toolHeadline(card: ToolCallCard): Headline {
  const d = toolCallDisplay(card);
  const exit = card.exit;
  // A command that exited ran, even when its non-zero exit made the call an error.
  const ran = card.status === 'done' || exit !== undefined;
  const suffix = !exit || exit.outcome === 'success' ? undefined : exit.outcome === 'failed' ? `exit ${exit.code ?? '?'}` : exit.outcome === 'timed_out' ? 'timed out' : 'killed';
  return {
    verb: ran ? d.done ?? d.verb : d.verb,
    ...(d.path ? { path: d.path } : {}),
    ...(d.detail ? { rest: d.detail } : {}),
    ...(d.code ? { restIsCode: true } : {}),
    ...(suffix ? { suffix } : {}),
  };
}
