/**
 * The facts one task sends: before each request of a role that plans or carries out plans (never a
 * reviewing role: its context is fixed to what it judges), the book is checked against the code and
 * the fresh facts go into the system prompt within the token cap. What a request carried is shown:
 * a `facts` card whenever what is sent (or what was left out as stale) changes — so it is the same
 * card for a run of requests, and the chat and history say exactly what the model was given.
 */
import { citationLabel, type FactsCard, type LearnedCard, type RoleInfo, type TextCard } from '../../protocol';
import type { FactBook } from './factBook';
import { factSection } from './factSection';

export interface FactsUi {
  newId(prefix: string): string;
  addCard(card: FactsCard | LearnedCard | TextCard): void;
}

export class TaskFactSection {
  private lastShown = new Map<string, string>();

  constructor(
    private readonly book: FactBook,
    private readonly ui: FactsUi,
    /** The task's own words (its first message): facts citing files it names come first. */
    private readonly taskText: () => string,
    /** `--no-facts`: none sent in this run, whatever the settings say. */
    private readonly off = false,
  ) {}

  /** Whether a role is sent facts: it plans or executes plans, and never a role that reviews. */
  static receives(role: RoleInfo): boolean {
    return !role.reviews && (role.mayPlan || role.executesPlans);
  }

  async systemText(role: RoleInfo): Promise<string | undefined> {
    const problem = this.book.takeProblem();
    if (problem) this.ui.addCard({ kind: 'text', id: this.ui.newId('note'), author: 'system', note: 'context', text: problem, ts: Date.now() });
    if (this.off || !TaskFactSection.receives(role)) return undefined;
    const { fresh, stale } = await this.book.usable();
    const section = factSection(fresh, this.taskText(), this.book.settings.maxTokens);
    const key = JSON.stringify([section.sent.map((f) => f.id), stale.map((s) => s.fact.id), section.leftOut]);
    if (this.lastShown.get(role.id) !== key && (section.sent.length || stale.length)) {
      this.ui.addCard({
        kind: 'facts',
        id: this.ui.newId('facts'),
        role: role.id,
        sent: section.sent.map((f) => ({ id: f.id, text: f.text, cited: citationLabel(f.citation) })),
        stale: stale.map((s) => ({ id: s.fact.id, text: s.fact.text, cited: s.cited, why: s.stale!.detail })),
        ...(section.leftOut ? { left_out: section.leftOut } : {}),
        ts: Date.now(),
      });
    }
    this.lastShown.set(role.id, key);
    return section.text;
  }
}
