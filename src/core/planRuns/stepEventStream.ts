import type { Card, HostEvent, HostEventInput } from '../../protocol';
import { EventStream } from '../events/eventStream';

/**
 * The task's event stream as one plan step sees it when steps run side by side: every card it adds
 * carries its step (as EventStream.stepOf stamps one running step) and every event its step number (the chat draws a lane per step, `--json` prints
 * it), and its cards are marked as that step's own conversation (`branch`), which a resumed task's
 * conversation leaves out. Ids, sequence numbers and the card store stay the task's: one stream.
 */
export class StepEventStream extends EventStream {
  /** `branch`: the step has a conversation of its own (it runs beside others); false: it works in the task's. */
  constructor(private readonly task: EventStream, private readonly step: number, private readonly branch = true) {
    super(() => {}, '');
  }

  override emit(input: HostEventInput): HostEvent {
    return this.task.emit(this.stamp(input));
  }

  private stamp(input: HostEventInput): HostEventInput {
    if (input.type === 'card_added') {
      if (!STEPPED.has(input.card.kind)) return input;
      return { ...input, card: { ...input.card, step: this.step, ...(this.branch && BRANCH_KINDS.has(input.card.kind) ? { branch: true } : {}) } as Card };
    }
    if (STAMPED.has(input.type)) return { ...input, step: this.step } as HostEventInput;
    return input;
  }

  override newId(kind?: string): string {
    return this.task.newId(kind);
  }

  override cards(): Card[] {
    return this.task.cards();
  }

  override card(id: string): Card | undefined {
    return this.task.card(id);
  }

  override snapshot(...args: Parameters<EventStream['snapshot']>): HostEvent {
    return this.task.snapshot(...args);
  }

  override get lastSeq(): number {
    return this.task.lastSeq;
  }
}

/** The cards a step's run adds (as EventStream.stepOf stamps them for a step in the task's conversation). */
const STEPPED: ReadonlySet<Card['kind']> = new Set(['text', 'tool_call', 'question', 'error', 'usage']);
/** Card kinds that are part of a conversation (usage only carries the step). */
const BRANCH_KINDS: ReadonlySet<Card['kind']> = new Set(['text', 'tool_call', 'question', 'error']);
const STAMPED: ReadonlySet<HostEventInput['type']> = new Set(['card_patched', 'text_appended', 'reasoning_appended', 'agent_state', 'amendment']);
