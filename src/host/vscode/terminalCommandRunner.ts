import * as vscode from 'vscode';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { API_KEY_ENV_VARS } from '../../core/secrets/apiKeyEnv';
import type { CommandIsolation, CommandResult, CommandRunner, Logger, SandboxStatus } from '../../core/ports/ports';
import { prepareSandboxedCommand, sandboxStatusFor, type PreparedCommand, type SandboxSettings } from '../node/sandbox/sandboxedCommand';
import { nullLogger } from '../../core/ports/ports';
import { HeadTailBuffer } from '../../core/text/truncate';
import { terminalToText } from './terminalText';
import { killDescendants } from './processTree';
import { userTerminalEnv } from './userTerminalEnv';
import type { EnvOverrides } from '../node/nodeCommandRunner';

export interface TerminalRunnerOptions {
  /** The child-process runner used when shell integration does not come up (the core's NodeCommandRunner). */
  fallback: CommandRunner;
  /** How long to wait for shell integration in a fresh terminal before falling back. */
  shellIntegrationWaitMs?: number;
  /** Output kept per command (head + tail). */
  maxOutputChars?: number;
  logger?: Logger;
  /** The shell for the terminal; bash where there is one, so the fail-fast wrapper is known to work. */
  shellPath?: string;
  /** How commands are sandboxed; the terminal runs the same bwrap command line as the fallback would. */
  sandbox?: SandboxSettings | (() => SandboxSettings);
  /** The user's terminal environment setting, resolved (default: read from `terminal.integrated.env.*`). */
  env?: () => EnvOverrides;
}

type RunOpts = { cwd: string; timeoutMs: number; signal: AbortSignal; onOutput?: (chunk: string) => void; isolation?: CommandIsolation };

const NAME = 'Tandem';
/** The agent terminal's name says whether its first command runs in the sandbox. */
const terminalName = (sandboxed: boolean): string => (sandboxed ? `${NAME} (sandboxed)` : NAME);
/** The launcher a sandboxed command is typed with: the terminal shows `sandboxed 'npm test'`, not the bwrap line. */
const LAUNCHER = 'sandboxed';

/**
 * `run_command` in a visible terminal named "Tandem", through the shell-integration API: the user
 * sees the command and its output live, the agent gets the output and the exit code. Each command
 * runs in a fail-fast child shell (`bash -eo pipefail -c …`) so `exit`, `set` or `cd` cannot break the
 * user's terminal. Stop and the timeout kill the command's whole process tree (the terminal stays).
 * When shell integration is not available within a few seconds, the command runs as a child process
 * instead, its output echoed into a "Tandem" pseudo-terminal so it stays visible.
 */
export class TerminalCommandRunner implements CommandRunner, vscode.Disposable {
  private terminal?: vscode.Terminal;
  private echo?: EchoTerminal;
  /** Set once shell integration failed to come up: later commands go straight to the fallback. */
  private integrationUnavailable = false;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly subs: vscode.Disposable[] = [];
  private readonly waitMs: number;
  private readonly maxChars: number;
  private readonly logger: Logger;
  private readonly shellPath?: string;
  /** A private folder on the terminal's PATH holding the launcher of the command in flight. */
  private launcherDir: string | undefined;

  constructor(private readonly opts: TerminalRunnerOptions) {
    this.waitMs = opts.shellIntegrationWaitMs ?? 4000;
    this.maxChars = opts.maxOutputChars ?? 30_000;
    this.logger = opts.logger ?? nullLogger;
    this.shellPath = opts.shellPath ?? (process.platform !== 'win32' && fs.existsSync('/bin/bash') ? '/bin/bash' : undefined);
    this.subs.push(vscode.window.onDidCloseTerminal((t) => {
      if (t === this.terminal) this.terminal = undefined;
      if (this.echo && t === this.echo.terminal) this.echo = undefined;
    }));
  }

  /** True once a command fell back to a child process because the terminal had no shell integration. */
  get usingFallback(): boolean { return this.integrationUnavailable; }

  async sandboxStatus(): Promise<SandboxStatus> {
    return sandboxStatusFor(this.sandboxSettings());
  }

  private sandboxSettings(): SandboxSettings {
    const s = this.opts.sandbox;
    return typeof s === 'function' ? s() : s ?? {};
  }

  run(command: string, opts: RunOpts): Promise<CommandResult> {
    // One command at a time in the one terminal; the next waits for the previous to end.
    const next = this.queue.then(() => this.runOne(command, opts));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async runOne(command: string, opts: RunOpts): Promise<CommandResult> {
    if (opts.signal.aborted) return { exitCode: null, output: '', timedOut: false, cancelled: true };
    if (!this.integrationUnavailable) {
      const fresh = !this.terminal || this.terminal.exitStatus !== undefined;
      const term = this.ensureTerminal(opts.cwd, opts.isolation !== undefined);
      // Shown (without focus) when it opens; later commands do not pull the panel open again.
      if (fresh) term.show(true);
      const si = await this.waitForShellIntegration(term, opts.signal);
      if (opts.signal.aborted) return { exitCode: null, output: '', timedOut: false, cancelled: true };
      if (si) {
        if (!opts.isolation) return this.runInTerminal(term, si, command, opts);
        // The same sandboxed command line the child-process runner would run, typed into the terminal.
        const prepared = prepareSandboxedCommand(this.sandboxSettings(), opts.isolation, { cwd: opts.cwd, shell: 'bash', command });
        if ('refused' in prepared) return { exitCode: null, output: prepared.refused, timedOut: false, cancelled: false };
        return this.runPrepared(term, si, prepared, opts);
      }
      this.integrationUnavailable = true;
      this.logger.warn(`Terminal shell integration did not start within ${this.waitMs} ms; running commands as child processes.`);
      term.dispose();
      this.terminal = undefined;
    }
    return this.runFallback(command, opts);
  }

  private ensureTerminal(cwd: string, sandboxed: boolean): vscode.Terminal {
    if (this.terminal && this.terminal.exitStatus === undefined) return this.terminal;
    this.launcherDir ??= fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-launch-'));
    // VS Code applies the user's terminal.integrated.env.* first and this terminal's env over it, so
    // the PATH given here would replace the user's: it is the user's PATH (or the host's, without
    // the setting) with the launcher's folder in front.
    const userPath = (this.opts.env ?? userTerminalEnv)().PATH;
    const basePath = userPath === undefined ? process.env.PATH ?? '' : userPath ?? '';
    this.terminal = vscode.window.createTerminal({
      name: terminalName(sandboxed),
      cwd,
      shellPath: this.shellPath,
      iconPath: new vscode.ThemeIcon('hubot'),
      // The agent's terminal should not be restored as a dead shell after a reload.
      isTransient: true,
      // The key variables are not inherited by what the agent runs (null unsets them).
      env: { ...Object.fromEntries(API_KEY_ENV_VARS.map((n) => [n, null])), PATH: basePath ? `${this.launcherDir}${path.delimiter}${basePath}` : this.launcherDir },
    });
    return this.terminal;
  }

  private waitForShellIntegration(term: vscode.Terminal, signal: AbortSignal): Promise<vscode.TerminalShellIntegration | undefined> {
    if (term.shellIntegration) return Promise.resolve(term.shellIntegration);
    return new Promise((resolve) => {
      const done = (v: vscode.TerminalShellIntegration | undefined) => {
        clearTimeout(timer);
        sub.dispose();
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      };
      const onAbort = () => done(undefined);
      const sub = vscode.window.onDidChangeTerminalShellIntegration((e) => { if (e.terminal === term) done(e.shellIntegration); });
      const timer = setTimeout(() => done(term.shellIntegration), this.waitMs);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  private async runPrepared(term: vscode.Terminal, si: vscode.TerminalShellIntegration, prepared: PreparedCommand, opts: RunOpts): Promise<CommandResult> {
    const launcher = this.writeLauncher(prepared, opts.cwd);
    try {
      // The launcher holds the bwrap line (the command is its one argument); without one, the whole line is typed.
      const line = launcher ? `${LAUNCHER} ${shellQuote(prepared.argv.at(-1)!)}` : `cd -- ${shellQuote(opts.cwd)} && ${prepared.argv.map(shellQuote).join(' ')}`;
      const res = await this.runInTerminal(term, si, line, opts, true);
      const notes = prepared.after();
      return notes.length ? { ...res, sandboxNotes: notes } : res;
    } finally {
      if (launcher) fs.rmSync(launcher, { force: true });
      prepared.cleanup();
    }
  }

  /**
   * `sandboxed CMD`: the sandbox's command line for this one command, with CMD as its last argument,
   * removed when the command ends (so typing it again later runs nothing stale). Undefined when the
   * prepared line does not end with the command (then the line is typed whole).
   */
  private writeLauncher(prepared: PreparedCommand, cwd: string): string | undefined {
    const dir = this.launcherDir;
    if (!dir || process.platform === 'win32' || prepared.argv.length < 2) return undefined;
    const file = path.join(dir, LAUNCHER);
    try {
      fs.writeFileSync(file, `#!/bin/sh\ncd -- ${shellQuote(cwd)} || exit 1\nexec ${prepared.argv.slice(0, -1).map(shellQuote).join(' ')} "$1"\n`, { mode: 0o700 });
      return file;
    } catch (e) {
      this.logger.warn(`could not write the sandbox launcher: ${String(e)}`);
      return undefined;
    }
  }

  private async runInTerminal(term: vscode.Terminal, si: vscode.TerminalShellIntegration, command: string, opts: RunOpts, asIs = false): Promise<CommandResult> {
    const buf = new HeadTailBuffer(this.maxChars);
    let timedOut = false;
    let cancelled = false;
    let closed = false;

    const line = asIs ? command : this.wrap(command, opts.cwd);
    let execution: vscode.TerminalShellExecution | undefined;
    let resolveEnd!: (code: number | undefined) => void;
    const ended = new Promise<number | undefined>((r) => { resolveEnd = r; });
    const endSub = vscode.window.onDidEndTerminalShellExecution((e) => {
      if (execution && e.execution === execution) resolveEnd(e.exitCode);
    });
    const closeSub = vscode.window.onDidCloseTerminal((t) => { if (t === term) { closed = true; resolveEnd(undefined); } });

    execution = si.executeCommand(line);
    // read() must be called right away, or the start of the output is lost.
    const stream = execution.read();
    const reading = (async () => {
      for await (const data of stream) {
        const text = terminalToText(data);
        if (!text) continue;
        buf.push(text);
        opts.onOutput?.(text);
      }
    })().catch((e) => this.logger.warn(`reading terminal output failed: ${e}`));

    const kill = async (why: 'timeout' | 'stop') => {
      if (why === 'timeout') timedOut = true; else cancelled = true;
      const pid = await term.processId;
      if (pid) await killDescendants(pid);
      // Still not ended (a process that survived SIGKILL's parent, or a hung shell): give up on this terminal.
      const still = await Promise.race([ended.then(() => false), sleep(3000).then(() => true)]);
      if (still) {
        this.logger.warn('The command did not end after its process tree was killed; closing the Tandem terminal.');
        term.dispose();
        if (this.terminal === term) this.terminal = undefined;
        resolveEnd(undefined);
      }
    };
    const timer = setTimeout(() => void kill('timeout'), opts.timeoutMs);
    const onAbort = () => void kill('stop');
    opts.signal.addEventListener('abort', onAbort, { once: true });

    try {
      const code = await ended;
      // The stream ends with the execution; don't wait forever if the terminal never closes it.
      await Promise.race([reading, sleep(1000)]);
      let output = buf.toString();
      if (closed && !timedOut && !cancelled) output += '\n[the Tandem terminal was closed while the command ran]';
      return { exitCode: typeof code === 'number' ? code : null, output, timedOut, cancelled: cancelled || (closed && !timedOut) };
    } finally {
      clearTimeout(timer);
      opts.signal.removeEventListener('abort', onAbort);
      endSub.dispose();
      closeSub.dispose();
    }
  }

  /** The command line typed into the terminal: a fail-fast child shell, in the right folder, on one line. */
  private wrap(command: string, cwd: string): string {
    if (process.platform === 'win32' && !this.shellPath) return command;
    // The `cd` runs in the terminal's shell so the user sees where the command runs; the command
    // itself stays readable inside the quotes.
    return `cd -- ${shellQuote(cwd)} && bash -eo pipefail -c ${shellQuote(command)}`;
  }

  private async runFallback(command: string, opts: RunOpts): Promise<CommandResult> {
    const echo = this.ensureEcho(opts.isolation !== undefined);
    // As the integrated terminal types it: a sandboxed command reads `sandboxed 'CMD'`, a plain one `CMD`
    // (the fallback runner sandboxes exactly when the command has an isolation).
    const shown = opts.isolation ? `${LAUNCHER} ${shellQuote(command)}` : command;
    echo.write(`\x1b[1m$ ${shown}\x1b[0m  \x1b[2m(${opts.cwd})\x1b[0m\n`);
    const result = await this.opts.fallback.run(command, {
      ...opts,
      onOutput: (chunk) => {
        echo.write(chunk);
        opts.onOutput?.(chunk);
      },
    });
    const how = result.timedOut ? 'timed out' : result.cancelled ? 'stopped' : `exit code ${result.exitCode}`;
    echo.write(`\x1b[2m[${how}]\x1b[0m\n\n`);
    return result;
  }

  private ensureEcho(sandboxed: boolean): EchoTerminal {
    // Named as the integrated terminal would be: the fallback is what runs when that one could not start.
    if (!this.echo) this.echo = new EchoTerminal(terminalName(sandboxed));
    this.echo.terminal.show(true);
    return this.echo;
  }

  dispose(): void {
    this.terminal?.dispose();
    if (this.launcherDir) fs.rmSync(this.launcherDir, { recursive: true, force: true });
    this.echo?.dispose();
    for (const s of this.subs) s.dispose();
  }
}

/** A read-only pseudo-terminal that shows what the child-process fallback runs. */
class EchoTerminal {
  readonly terminal: vscode.Terminal;
  private readonly emitter = new vscode.EventEmitter<string>();
  private opened = false;
  private backlog: string[] = [];

  constructor(name: string) {
    const pty: vscode.Pseudoterminal = {
      onDidWrite: this.emitter.event,
      open: () => {
        this.opened = true;
        for (const s of this.backlog) this.emitter.fire(s);
        this.backlog = [];
      },
      close: () => { this.opened = false; },
    };
    this.terminal = vscode.window.createTerminal({ name, pty, iconPath: new vscode.ThemeIcon('hubot'), isTransient: true });
  }

  write(text: string): void {
    const s = text.replace(/\r?\n/g, '\r\n');
    if (this.opened) this.emitter.fire(s);
    else if (this.backlog.length < 10_000) this.backlog.push(s);
  }

  dispose(): void {
    this.terminal.dispose();
    this.emitter.dispose();
  }
}

/** POSIX single-quoting; ANSI-C quoting ($'…') when there are newlines, so the command stays one line. */
export function shellQuote(s: string): string {
  if (!/[\n\r\t']/.test(s)) return `'${s}'`;
  return `$'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t')}'`;
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
