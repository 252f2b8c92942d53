/**
 * `@terminal`: the last command's output in the active terminal. Shell integration reports each
 * command as it starts; its output stream is read as it arrives and kept (capped, the end wins)
 * per terminal, so the mention attaches what the user just saw fail.
 */
import * as vscode from 'vscode';
import { terminalToText } from './terminalText';

const KEEP_CHARS = 100_000;

interface LastCommand {
  command: string;
  output: string;
  exitCode?: number;
}

export class TerminalOutputTracker implements vscode.Disposable {
  private readonly last = new WeakMap<vscode.Terminal, LastCommand>();
  private readonly subs: vscode.Disposable[];

  constructor() {
    this.subs = [
      vscode.window.onDidStartTerminalShellExecution((e) => void this.follow(e.terminal, e.execution)),
      vscode.window.onDidEndTerminalShellExecution((e) => {
        const entry = this.last.get(e.terminal);
        if (entry && e.exitCode !== undefined) entry.exitCode = e.exitCode;
      }),
    ];
  }

  private async follow(terminal: vscode.Terminal, execution: vscode.TerminalShellExecution): Promise<void> {
    const entry: LastCommand = { command: execution.commandLine.value, output: '' };
    this.last.set(terminal, entry);
    try {
      for await (const chunk of execution.read()) {
        entry.output += chunk;
        if (entry.output.length > KEEP_CHARS * 2) entry.output = entry.output.slice(-KEEP_CHARS);
      }
    } catch {
      /* the terminal closed while reading: keep what arrived */
    }
  }

  /** The active terminal's last command and its output as plain text; undefined when none is known. */
  async lastOutput(): Promise<string | undefined> {
    const terminal = vscode.window.activeTerminal;
    const entry = terminal && this.last.get(terminal);
    if (!entry) return undefined;
    const exit = entry.exitCode === undefined ? '' : ` (exit ${entry.exitCode})`;
    return `$ ${entry.command}${exit}\n${terminalToText(entry.output).slice(-KEEP_CHARS).trimEnd()}`;
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
  }
}
