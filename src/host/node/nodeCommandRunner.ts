/**
 * CommandRunner on child_process, for the CLI and unit tests (and the editor's fallback when shell
 * integration is unavailable).
 *
 * - `bash -e -o pipefail -c CMD`: fail-fast, so `false && …; echo ok` style surprises and a failing
 *   stage in a pipe show up as a non-zero exit code.
 * - The shell runs detached in its own process group so Stop and the timeout can kill the whole
 *   tree, not just the shell (killing only the shell leaves its children running, and holding the
 *   output pipe open): SIGTERM to the group, then SIGKILL after a grace period.
 * - When the shell exits, whatever it left running in its group (`server &`) is stopped too: a
 *   command's processes end with the command, so nothing the agent started outlives its tool call.
 * - stdin is closed, so a command that waits for input gets EOF instead of hanging.
 */
import { spawn } from 'node:child_process';
import { withoutApiKey } from '../../core/secrets/apiKeyEnv';
import type { CommandIsolation, CommandResult, CommandRunner, SandboxStatus } from '../../core/ports/ports';
import { enterView, prepareSandboxedCommand, sandboxStatusFor, type SandboxSettings } from './sandbox/sandboxedCommand';
import { viewOfPath } from './cow/stepView';
import { HeadTailBuffer } from '../../core/text/truncate';

export interface NodeCommandRunnerOptions {
  /** Output kept per command (head and tail halves). */
  maxOutputChars?: number;
  /** Time between SIGTERM and SIGKILL. */
  killGraceMs?: number;
  shell?: string;
  /** The sandbox's settings; where bwrap is found from (`TANDEM_BWRAP`, PATH) is read from `env`. */
  sandbox?: SandboxSettings | (() => SandboxSettings);
  /**
   * Variables set (or unset, null) over this process's environment for every command, read per
   * command: the editor passes the user's terminal environment setting here.
   */
  env?: () => EnvOverrides;
}

/**
 * A copy-on-write step's overlay is mounted without privilege, where the kernel makes no redirects:
 * renaming a folder the workspace has fails with EXDEV, as a move across file systems does. `mv`
 * copes (it copies, then deletes); a program's own rename does not, and the model is told how.
 */
export const COPY_ON_WRITE_RENAME_NOTE =
  "In this step's copy-on-write workspace a folder the workspace has cannot be renamed in place: the kernel refuses it (EXDEV, a cross-device link). Move it with `mv`, which copies it and deletes the old one, or copy it and delete the old one.";

/** How programs word EXDEV (Node's code, glibc's and musl's messages). */
const CROSS_DEVICE = /\bEXDEV\b|Invalid cross-device link|cross-device link not permitted|Cross-device link/i;

const inStepView = (cwd: string, roots: readonly string[]) => viewOfPath(cwd) !== undefined || roots.some((r) => viewOfPath(r) !== undefined);

/** Variables over a base environment: a value, or null to unset the variable. */
export type EnvOverrides = Record<string, string | null>;

/** `base` with the overrides applied (null unsets). */
export function applyEnvOverrides(base: NodeJS.ProcessEnv, overrides: EnvOverrides): NodeJS.ProcessEnv {
  const out = { ...base };
  for (const [k, v] of Object.entries(overrides)) {
    if (v === null) delete out[k];
    else out[k] = v;
  }
  return out;
}

/**
 * The environment of a command the agent runs. The key variables are left out (apiKeyEnv.ts): a
 * command that printed one (`env`, `echo $OPENAI_API_KEY`) would put the key into the tool result,
 * the next request and the task's history.
 */
function childEnv(overrides: EnvOverrides): NodeJS.ProcessEnv {
  return withoutApiKey({ ...applyEnvOverrides(process.env, overrides), PAGER: 'cat', GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0', TERM: 'dumb', NO_COLOR: '1' });
}

export class NodeCommandRunner implements CommandRunner {
  private readonly maxOutputChars: number;
  private readonly killGraceMs: number;
  private readonly shell: string;
  private readonly sandboxOpt: SandboxSettings | (() => SandboxSettings);
  private readonly envOverrides: () => EnvOverrides;

  constructor(opts: NodeCommandRunnerOptions = {}) {
    this.maxOutputChars = opts.maxOutputChars ?? 30_000;
    this.killGraceMs = opts.killGraceMs ?? 2_000;
    this.shell = opts.shell ?? 'bash';
    this.sandboxOpt = opts.sandbox ?? {};
    this.envOverrides = opts.env ?? (() => ({}));
  }

  private get sandbox(): SandboxSettings {
    return typeof this.sandboxOpt === 'function' ? this.sandboxOpt() : this.sandboxOpt;
  }

  async sandboxStatus(): Promise<SandboxStatus> {
    return sandboxStatusFor(this.sandbox);
  }

  async run(command: string, opts: { cwd: string; timeoutMs: number; signal: AbortSignal; onOutput?: (chunk: string) => void; isolation?: CommandIsolation }): Promise<CommandResult> {
    if (!opts.isolation) {
      const shell = [this.shell, '-e', '-o', 'pipefail', '-c', command];
      // In a copy-on-write step's folder, the command runs where that folder's files are: in its namespace.
      const view = viewOfPath(opts.cwd);
      // (nsenter's own --wd would open the folder before entering, the host's empty mount point.)
      if (view) {
        const res = await this.spawnAndWait([...enterView(view), 'sh', '-c', 'cd -- "$1" && shift && exec "$@"', 'sh', view.toNs(opts.cwd), ...shell], '/', opts);
        return CROSS_DEVICE.test(res.output) ? { ...res, sandboxNotes: [COPY_ON_WRITE_RENAME_NOTE] } : res;
      }
      return this.spawnAndWait(shell, opts.cwd, opts);
    }
    const prepared = prepareSandboxedCommand(this.sandbox, opts.isolation, { cwd: opts.cwd, shell: this.shell, command });
    if ('refused' in prepared) return { exitCode: null, output: prepared.refused, timedOut: false, cancelled: false };
    try {
      const res = await this.spawnAndWait(prepared.argv, '/', opts);
      const notes = prepared.after();
      if (inStepView(opts.cwd, opts.isolation.roots) && CROSS_DEVICE.test(res.output)) notes.push(COPY_ON_WRITE_RENAME_NOTE);
      return notes.length ? { ...res, sandboxNotes: notes } : res;
    } finally {
      prepared.cleanup();
    }
  }

  private spawnAndWait(argv: readonly string[], cwd: string, opts: { timeoutMs: number; signal: AbortSignal; onOutput?: (chunk: string) => void }): Promise<CommandResult> {
    return new Promise<CommandResult>((resolve) => {
      const out = new HeadTailBuffer(this.maxOutputChars);
      if (opts.signal.aborted) {
        resolve({ exitCode: null, output: '', timedOut: false, cancelled: true });
        return;
      }
      const child = spawn(argv[0]!, argv.slice(1), {
        cwd,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: childEnv(this.envOverrides()),
      });
      let timedOut = false;
      let cancelled = false;
      let finished = false;
      let killTimer: NodeJS.Timeout | undefined;
      let exitCode: number | null = null;
      let spawnError: Error | undefined;

      const onData = (s: string) => {
        out.push(s);
        opts.onOutput?.(s);
      };
      // setEncoding keeps a multi-byte character split across two reads in one piece.
      child.stdout!.setEncoding('utf8');
      child.stderr!.setEncoding('utf8');
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);

      const killGroup = (sig: NodeJS.Signals): boolean => {
        if (child.pid === undefined) return false;
        try {
          process.kill(-child.pid, sig);
          return true;
        } catch {
          return false; // group already gone
        }
      };
      // A process that left our group (setsid) but kept our pipes open would keep 'close' from ever
      // coming; after the grace period plus a margin, stop waiting for it.
      let giveUpTimer: NodeJS.Timeout | undefined;
      const giveUpLater = () => {
        giveUpTimer ??= setTimeout(() => {
          child.stdout!.destroy();
          child.stderr!.destroy();
          finish();
        }, this.killGraceMs + 1_000);
      };
      const stopTree = () => {
        killGroup('SIGTERM');
        killTimer ??= setTimeout(() => killGroup('SIGKILL'), this.killGraceMs);
        giveUpLater();
      };

      const timer = setTimeout(() => {
        timedOut = true;
        stopTree();
      }, Math.max(1, opts.timeoutMs));
      const onAbort = () => {
        cancelled = true;
        stopTree();
      };
      opts.signal.addEventListener('abort', onAbort, { once: true });

      const finish = () => {
        if (finished) return;
        finished = true;
        clearTimeout(timer);
        if (killTimer) clearTimeout(killTimer);
        if (giveUpTimer) clearTimeout(giveUpTimer);
        // Anything of the group still alive (closed its output, ignored SIGTERM) does not survive the call.
        killGroup('SIGKILL');
        opts.signal.removeEventListener('abort', onAbort);
        let output = out.toString();
        if (spawnError) output += `${output ? '\n' : ''}[could not start ${argv[0]}: ${spawnError.message}]`;
        resolve({ exitCode: timedOut || cancelled ? null : exitCode, output, timedOut, cancelled });
      };

      child.on('error', (e) => {
        spawnError = e;
        exitCode = null;
        finish();
      });
      child.on('exit', (code, signal) => {
        exitCode = code ?? (signal ? 128 + (signalNumber(signal) ?? 0) : null);
        // Leftover background processes still hold the pipes open; stop them so 'close' comes and
        // nothing outlives the call. SIGTERM first, SIGKILL after the grace period.
        if (killGroup('SIGTERM')) killTimer ??= setTimeout(() => killGroup('SIGKILL'), this.killGraceMs);
        giveUpLater();
      });
      // 'close' = process exited and its stdio ended (all writers, including grandchildren, are gone).
      child.on('close', finish);
    });
  }
}

function signalNumber(sig: NodeJS.Signals): number | undefined {
  const table: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGKILL: 9, SIGTERM: 15, SIGPIPE: 13 };
  return table[sig];
}
