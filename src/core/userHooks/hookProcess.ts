/**
 * The port that runs one hook command: the host spawns it (the core never starts processes). The
 * Node host's implementation is src/host/node/nodeHookProcess.ts.
 */
export interface HookProcessRequest {
  command: string;
  /** The workspace folder: hooks run there, as Claude Code's do in the project. */
  cwd: string;
  /** The JSON object the hook reads on stdin. */
  stdin: string;
  timeoutMs: number;
  /** Each of stdout and stderr is cut to this many characters. */
  maxOutputChars: number;
  /** Extra variables (CLAUDE_PROJECT_DIR); the host's environment never carries the API key. */
  env: Record<string, string>;
  signal?: AbortSignal;
}

export interface HookProcessResult {
  /** null when the process was killed or could not start. */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** It could not be started at all (the shell missing, the folder gone). */
  spawnError?: string;
}

export interface HookProcess {
  run(req: HookProcessRequest): Promise<HookProcessResult>;
}
