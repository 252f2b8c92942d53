/**
 * The question policy without a person at the keyboard (CLI, CI): `--answer default` answers every
 * question with its default and says so on stderr; otherwise the question is unanswerable, the
 * turn ends `waiting` and the CLI exits 3 after printing it.
 */
import type { Question } from '../../protocol';
import { QuestionUnanswerable, type Logger, type QuestionAsker } from '../../core/ports/ports';

export type HeadlessAnswerPolicy = 'default' | 'none';

export class HeadlessAsker implements QuestionAsker {
  /** Questions that could not be answered, for the CLI to print. */
  readonly unanswered: Question[] = [];

  constructor(private readonly policy: HeadlessAnswerPolicy, private readonly logger?: Logger) {}

  async ask(question: Question): Promise<string> {
    if (this.policy === 'default') {
      this.logger?.info(`question answered with its default (--answer default): ${question.question} -> ${question.default}`);
      return question.default;
    }
    this.unanswered.push(question);
    throw new QuestionUnanswerable(question);
  }
}

/** The question as the CLI prints it when it exits 3: the text, the options, the default marked. */
export function formatQuestion(q: Question): string {
  const lines = [`Question (${q.severity}): ${q.question}`];
  if (q.context) lines.push(q.context);
  for (const o of q.options) {
    lines.push(`  - ${o.value}: ${o.label}${o.value === q.default ? ' (default)' : ''}${o.description ? ` — ${o.description}` : ''}`);
  }
  if (q.allow_custom) lines.push('  (a free-text answer is allowed)');
  lines.push('Re-run with --answer default to take the default.');
  return lines.join('\n');
}
