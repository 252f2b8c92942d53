/**
 * The step workspaces a Node host gives plan steps: copy-on-write where Linux can mount the overlay
 * without privilege (cow/overlayStepWorkspaces.ts), costing what the step writes; a full git worktree
 * elsewhere (gitStepWorkspaces.ts) — another system, no user namespaces, a kernel or file system that
 * refuses the overlay — with one log line saying why. `TANDEM_STEP_WORKSPACES=worktree` asks for the
 * worktrees (tests run every parallel-step suite both ways with it).
 */
import type { Logger } from '../../core/ports/ports';
import type { LeftoverStep, StepPatch, StepWorkspace, StepWorkspaces } from '../../core/ports/stepWorkspaces';
import { GitStepWorkspaces } from './gitStepWorkspaces';
import { OverlayStepWorkspaces } from './cow/overlayStepWorkspaces';

export interface NodeStepWorkspacesOptions {
  /** Where step folders go (`TANDEM_WORKTREES_DIR`, read by the host); default: /dev/shm or the temp folder. */
  dir?: string;
  /** The environment the switch is read from (`TANDEM_STEP_WORKSPACES`). */
  env?: NodeJS.ProcessEnv;
  logger: Logger;
  /** The two kinds, when the caller makes them (default: both in `dir`). */
  overlay?: OverlayStepWorkspaces;
  git?: GitStepWorkspaces;
}

/** Why no step here gets a copy-on-write view, whatever the workspace; undefined when one may. */
export function copyOnWriteOff(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.TANDEM_STEP_WORKSPACES === 'worktree') return 'TANDEM_STEP_WORKSPACES=worktree asks for worktrees';
  if (process.platform !== 'linux') return `copy-on-write views need Linux's overlayfs, and this is ${process.platform}`;
  return undefined;
}

export class NodeStepWorkspaces implements StepWorkspaces {
  private readonly overlay: OverlayStepWorkspaces;
  private readonly git: GitStepWorkspaces;
  /** Why a repository's steps get worktrees (the first overlay that failed there), by workspace. */
  private readonly refused = new Map<string, string>();
  private readonly said = new Set<string>();

  constructor(private readonly o: NodeStepWorkspacesOptions) {
    this.overlay = o.overlay ?? new OverlayStepWorkspaces(o.dir ? { dir: o.dir } : {});
    this.git = o.git ?? new GitStepWorkspaces(o.dir ? { dir: o.dir } : {});
  }

  unavailable(workspace: string): Promise<string | undefined> {
    return this.git.unavailable(workspace);
  }

  async create(workspace: string, label: string): Promise<StepWorkspace> {
    let why = copyOnWriteOff(this.o.env) ?? this.refused.get(workspace);
    if (!why) {
      try {
        return await this.overlay.create(workspace, label);
      } catch (e) {
        why = `the overlay could not be mounted (${e instanceof Error ? e.message : String(e)})`;
        this.refused.set(workspace, why);
      }
    }
    this.fellBack(why);
    return this.git.create(workspace, label);
  }

  /** One line per reason: the user learns why steps cost a full checkout here, once. */
  private fellBack(why: string): void {
    if (this.said.has(why)) return;
    this.said.add(why);
    this.o.logger.info(`Step workspaces: each step running beside another gets a full git worktree, not a copy-on-write view: ${why}.`);
  }

  readPatch(step: StepWorkspace): Promise<StepPatch> {
    return this.overlay.owns(step) ? this.overlay.readPatch(step) : this.git.readPatch(step);
  }

  remove(step: StepWorkspace): Promise<void> {
    return this.overlay.owns(step) ? this.overlay.remove(step) : this.git.remove(step);
  }

  async sweep(workspace: string, keepIn: string): Promise<LeftoverStep[]> {
    return [...(await this.overlay.sweep(workspace, keepIn)), ...(await this.git.sweep(workspace, keepIn))];
  }
}
