/**
 * The plan as the Planner writes it: while its `propose_plan` call streams, a draft card shows the goal
 * and each step as soon as that step's JSON object is complete, checked on its own (the step schema and
 * the rules one step must meet), so a slow model's plan is readable long before it ends. The draft is
 * never a plan: nothing on it can be executed; the plan card comes only from the whole call, validated
 * by `PlanTurn` as always. The card is updated at most every `throttleMs`: a long plan in many small
 * chunks must not flood the chat.
 *
 * A plan asked for as text (an endpoint without structured outputs, requestPlan.ts) is drafted too,
 * from the first line that starts with `{` (the ```json block the instruction asks for, or a bare
 * object): the prose before it and what follows the object are not the plan's.
 */
import { MAX_PLAN_STEPS, type PlanDraftCard, type PlanDraftStep } from '../../protocol';
import type { CardSink } from '../events/cardSink';
import { JsonStreamReader, type CompletedValue, type JsonPath } from '../text/jsonStreamReader';
import { checkStepShape, stepRuleProblems } from './validatePlan';

export interface PlanDraftOptions {
  /** The tool names a step may use (as the plan's validation has them). */
  stepTools: readonly string[];
  /** The shortest time between two updates of the card. */
  throttleMs?: number;
  now?: () => number;
}

/** The default shortest time between two updates of the draft card: a few a second read as live. */
export const DRAFT_THROTTLE_MS = 200;

type DraftState = PlanDraftCard['state'];

const MAX_PROBLEMS_PER_STEP = 10;
const MAX_PROBLEM_CHARS = 1000;
const MAX_TEXT_CHARS = 2000;

/** The plan's fields, at its root or inside a one-key envelope (`{"plan": {...}}`, which validation undoes too). */
function planField(path: JsonPath): { field: 'goal' } | { field: 'step'; index: number } | undefined {
  const rel = path.length >= 2 && typeof path[0] === 'string' && path[0] !== 'steps' && path[0] !== 'goal' ? path.slice(1) : path;
  if (rel.length === 1 && rel[0] === 'goal') return { field: 'goal' };
  if (rel.length === 2 && rel[0] === 'steps' && typeof rel[1] === 'number') return { field: 'step', index: rel[1] };
  return undefined;
}

export class PlanDraft {
  private cardId: string | undefined;
  private reader: JsonStreamReader | undefined;
  /** Characters of the call's arguments already read. */
  private fed = 0;
  /** A new answer began: the next arguments are a new call, read from the start. */
  private fresh = true;
  private goal: string | undefined;
  private steps: PlanDraftStep[] = [];
  private more = 0;
  private state: DraftState = 'writing';
  private problems: string[] | undefined;
  private readonly known: ReadonlySet<string>;
  private dirty = false;
  private sentAt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** A text answer: where its plan's JSON starts, once found, and the start of the first line not yet looked at. */
  private textStart: number | undefined;
  private textScan = 0;

  constructor(private readonly ui: CardSink, private readonly opts: PlanDraftOptions) {
    this.known = new Set(opts.stepTools);
  }

  /** The draft card's id, once a `propose_plan` call began to stream. */
  get id(): string | undefined {
    return this.cardId;
  }

  /** A new request (or a retry of one) begins: a call streamed from now on is a new one. */
  newAnswer(): void {
    this.fresh = true;
    this.textStart = undefined;
    this.textScan = 0;
  }

  /** The `propose_plan` call's arguments as streamed so far. */
  write(args: string): void {
    this.feed(args, 0, false);
  }

  /**
   * A text answer as streamed so far: nothing is shown until a line starts with `{`; from there on it
   * is read as the plan's JSON, up to the end of that object. Each line is looked at once.
   */
  writeText(text: string): void {
    if (this.state === 'published') return;
    if (this.textStart === undefined) {
      while (this.textScan < text.length) {
        let i = this.textScan;
        while (text[i] === ' ' || text[i] === '\t') i++;
        if (text[i] === '{') { this.textStart = i; break; }
        // The line's first character is not here yet: look again when more has come.
        if (i >= text.length) return;
        const eol = text.indexOf('\n', i);
        if (eol < 0) return;
        this.textScan = eol + 1;
      }
      if (this.textStart === undefined) return;
    }
    this.feed(text, this.textStart, true);
  }

  /** `text` from `from` on is the plan's JSON as streamed so far; `inText`: what follows the object is not read. */
  private feed(text: string, from: number, inText: boolean): void {
    if (this.state === 'published') return;
    const length = text.length - from;
    if (this.fresh || length < this.fed) this.restart();
    if (length === this.fed) return;
    const chunk = text.slice(from + this.fed);
    this.fed = length;
    const reader = this.reader!;
    if (inText && reader.done) return;
    const hadError = reader.error !== undefined;
    for (const v of reader.push(chunk)) this.take(v);
    // In a text answer the object ends the plan: the fence's end or a remark after it are not an error.
    if (!hadError && reader.error && !(inText && reader.done)) {
      this.problems = [`The plan's text is not JSON here: ${reader.error}. What came before is shown; the whole plan is checked when it arrives.`];
      this.dirty = true;
    }
    this.update();
  }

  /** The answer arrived whole: the call is about to be checked. */
  arrived(): void {
    if (this.cardId && this.state === 'writing') this.setState('checking');
  }

  /** The whole plan did not validate and the Planner was asked to write it again (or another model was). */
  repairing(problems: readonly string[]): void {
    if (this.cardId) this.setState('repairing', problems);
  }

  /** The plan card (valid or not) now stands for this call: the draft is no longer shown. */
  published(): void {
    if (this.cardId) this.setState('published');
  }

  /** The answer stopped before the plan was whole; `why` says how. A draft already ended keeps its end. */
  broke(why: string): void {
    if (this.cardId && (this.state === 'writing' || this.state === 'checking')) this.setState('broken', [why]);
  }

  /** The answer failed (`message`) or the user stopped it, before the plan was whole. */
  streamFailed(message: string, stopped: boolean): void {
    this.broke(stopped ? 'Stopped before the plan was complete, so it cannot be executed.' : `The plan stopped arriving (${message.replace(/\.$/, '')}), so it cannot be executed.`);
  }

  /** Whether the draft is still open (its call streams or waits to be checked). */
  get open(): boolean {
    return !!this.cardId && (this.state === 'writing' || this.state === 'checking');
  }

  private restart(): void {
    this.fresh = false;
    this.reader = new JsonStreamReader((p) => planField(p) !== undefined);
    this.fed = 0;
    this.goal = undefined;
    this.steps = [];
    this.more = 0;
    this.state = 'writing';
    this.problems = undefined;
    if (!this.cardId) {
      this.cardId = this.ui.newId('plan_draft');
      this.ui.addCard({ kind: 'plan_draft', id: this.cardId, state: 'writing', steps: [], ts: this.now() });
      this.sentAt = this.now();
    } else this.dirty = true;
  }

  private take(v: CompletedValue): void {
    const field = planField(v.path);
    if (!field) return;
    let value: unknown;
    try {
      value = JSON.parse(v.text);
    } catch {
      value = undefined;
    }
    if (field.field === 'goal') {
      if (typeof value === 'string') {
        this.goal = value.slice(0, MAX_TEXT_CHARS);
        this.dirty = true;
      }
      return;
    }
    this.dirty = true;
    if (field.index >= MAX_PLAN_STEPS) {
      this.more++;
      return;
    }
    const at = field.index + 1;
    if (value === undefined) {
      this.steps.push({ at, problems: [`step ${at}: its JSON does not parse`] });
      return;
    }
    const shape = checkStepShape(value, field.index);
    const rules = value && typeof value === 'object' && !Array.isArray(value) ? stepRuleProblems(value as Record<string, unknown>, field.index, this.known) : [];
    if (shape.step && rules.length === 0) {
      this.steps.push({ at, step: shape.step });
      return;
    }
    const action = (value as { action?: unknown } | null)?.action;
    this.steps.push({
      at,
      ...(typeof action === 'string' && action.trim() ? { action: action.slice(0, MAX_TEXT_CHARS) } : {}),
      problems: [...shape.problems, ...rules].slice(0, MAX_PROBLEMS_PER_STEP).map((p) => p.slice(0, MAX_PROBLEM_CHARS)),
    });
  }

  private setState(state: DraftState, problems?: readonly string[]): void {
    this.state = state;
    this.problems = problems ? problems.slice(0, 31).map((p) => p.slice(0, 2000)) : undefined;
    this.dirty = true;
    this.send();
  }

  /** Sends what changed now, or once `throttleMs` has passed since the last update. */
  private update(): void {
    if (!this.dirty) return;
    const wait = this.sentAt + (this.opts.throttleMs ?? DRAFT_THROTTLE_MS) - this.now();
    if (wait <= 0) return this.send();
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.send();
    }, wait);
  }

  private send(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (!this.dirty || !this.cardId) return;
    this.dirty = false;
    this.sentAt = this.now();
    // Every field, each time, never undefined (lost on the wire): a patch is shallow, and a restarted
    // draft must lose what the last answer wrote.
    this.ui.patchCard(this.cardId, {
      state: this.state,
      goal: this.goal ?? '',
      steps: [...this.steps],
      more_steps: this.more,
      problems: this.problems ?? [],
    });
  }

  private now(): number {
    return (this.opts.now ?? Date.now)();
  }
}
