import * as readline from 'node:readline';

/**
 * One line of input from the terminal, asked on stderr (stdout stays clean for the agent's
 * output). Rejects when the signal aborts (Stop / Ctrl-C) or stdin closes.
 */
export class TerminalPrompt {
  private rl: readline.Interface | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly input: NodeJS.ReadableStream = process.stdin, private readonly output: NodeJS.WritableStream = process.stderr) {}

  ask(prompt: string, signal: AbortSignal): Promise<string> {
    // Parallel tool calls may ask at once: one question at a time on a terminal.
    const next = this.queue.then(() => this.askNow(prompt, signal));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private askNow(prompt: string, signal: AbortSignal): Promise<string> {
    if (signal.aborted) return Promise.reject(new Error('stopped'));
    this.rl ??= readline.createInterface({ input: this.input, output: this.output, terminal: false });
    const rl = this.rl;
    return new Promise<string>((resolve, reject) => {
      const onAbort = () => {
        cleanup();
        reject(new Error('stopped'));
      };
      const onClose = () => {
        cleanup();
        reject(new Error('the terminal input closed'));
      };
      const onLine = (line: string) => {
        cleanup();
        resolve(line.trim());
      };
      const cleanup = () => {
        signal.removeEventListener('abort', onAbort);
        rl.off('line', onLine);
        rl.off('close', onClose);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      rl.on('line', onLine);
      rl.on('close', onClose);
      this.output.write(prompt);
    });
  }

  close(): void {
    this.rl?.close();
    this.rl = undefined;
  }
}
