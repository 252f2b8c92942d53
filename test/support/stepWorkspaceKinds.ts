/**
 * The two kinds of step workspace every parallel-step suite runs on: the copy-on-write view (the
 * default on Linux) and the git worktree it falls back to elsewhere, forced here with
 * `TANDEM_STEP_WORKSPACES=worktree`. The switch goes through process.env, so the CLI processes a
 * suite starts (cliRunner.ts lets it through), an in-process host and the workbench's extension host
 * (code-server inherits it when it starts) all see it.
 */
export interface StepWorkspaceKind {
  name: string;
  /** TANDEM_STEP_WORKSPACES for this kind (undefined: the default). */
  env: string | undefined;
}

export const STEP_WORKSPACE_KINDS: readonly StepWorkspaceKind[] = [
  { name: 'copy-on-write step workspaces', env: undefined },
  { name: 'git worktree step workspaces (the fallback, forced)', env: 'worktree' },
];

/** Within a describe, before anything that starts a host: its tests run on `kind`. */
export function useStepWorkspaceKind(kind: StepWorkspaceKind): void {
  let was: string | undefined;
  before(() => {
    was = process.env.TANDEM_STEP_WORKSPACES;
    if (kind.env === undefined) delete process.env.TANDEM_STEP_WORKSPACES;
    else process.env.TANDEM_STEP_WORKSPACES = kind.env;
  });
  after(() => {
    if (was === undefined) delete process.env.TANDEM_STEP_WORKSPACES;
    else process.env.TANDEM_STEP_WORKSPACES = was;
  });
}
