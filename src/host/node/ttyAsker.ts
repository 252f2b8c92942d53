import type { Question } from '../../protocol';
import type { QuestionAsker } from '../../core/ports/ports';
import type { TerminalPrompt } from './terminalPrompt';

/** Asks a question on the terminal: a number or an option value picks it, Enter takes the default. */
export class TtyAsker implements QuestionAsker {
  constructor(private readonly prompt: TerminalPrompt, private readonly out: (text: string) => void = (t) => process.stderr.write(t)) {}

  async ask(q: Question, _cardId: string, signal: AbortSignal): Promise<string> {
    const lines = [`\n? ${q.question}`];
    if (q.context) lines.push(`  ${q.context}`);
    q.options.forEach((o, i) => lines.push(`  ${i + 1}) ${o.label}${o.value === q.default ? ' (default)' : ''}${o.description ? ` — ${o.description}` : ''}`));
    this.out(`${lines.join('\n')}\n`);
    for (;;) {
      const a = await this.prompt.ask(q.allow_custom ? 'Choose a number, or type an answer: ' : 'Choose a number: ', signal);
      if (a === '') return q.default;
      const n = Number(a);
      if (Number.isInteger(n) && n >= 1 && n <= q.options.length) return q.options[n - 1]!.value;
      const byValue = q.options.find((o) => o.value === a || o.label.toLowerCase() === a.toLowerCase());
      if (byValue) return byValue.value;
      if (q.allow_custom) return a;
    }
  }
}
