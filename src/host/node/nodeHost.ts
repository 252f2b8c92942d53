/**
 * The host ports on plain Node, composed for the CLI and unit tests: real files, a real shell,
 * ripgrep from PATH, and whichever approver/asker the caller chose (terminal or headless).
 */
import { gitChanges } from './gitChanges';
import type { Approver, HostPorts, Logger, QuestionAsker } from '../../core/ports/ports';
import { nullLogger } from '../../core/ports/ports';
import { HeadlessAsker } from './headlessAsker';
import { NodeWorkspaceFs } from './nodeWorkspaceFs';
import { NodeCommandRunner } from './nodeCommandRunner';
import type { SandboxSettings } from './sandbox/sandboxedCommand';
import { findRipgrep } from './findRipgrep';
import { DenyingApprover } from './denyingApprover';
import { NodeStepWorkspaces } from './nodeStepWorkspaces';
import type { StepWorkspaces } from '../../core/ports/stepWorkspaces';

export interface NodeHostOptions {
  /** Workspace folders (the first is the default root). */
  roots: readonly string[];
  approver?: Approver;
  asker?: QuestionAsker;
  logger?: Logger;
  maxCommandOutputChars?: number;
  /** How commands are sandboxed (bubblewrap where it works). */
  sandbox?: SandboxSettings;
  /** Where plan steps run side by side get their workspaces (default: copy-on-write views where Linux allows, else git worktrees). */
  stepWorkspaces?: StepWorkspaces;
}

export function createNodeHost(o: NodeHostOptions): HostPorts {
  const logger = o.logger ?? nullLogger;
  const approver = o.approver ?? new DenyingApprover();
  const asker = o.asker ?? new HeadlessAsker('none', logger);
  const stepWorkspaces = o.stepWorkspaces ?? new NodeStepWorkspaces({ logger });
  return {
    fs: new NodeWorkspaceFs(o.roots),
    commands: new NodeCommandRunner({ maxOutputChars: o.maxCommandOutputChars, sandbox: o.sandbox }),
    approver,
    asker,
    ripgrepPath: findRipgrep(),
    context: { gitChanges },
    logger,
    stepWorkspaces,
    // The same person answers, under the same sandbox: only the folder differs.
    forRoot: (root, more) => createNodeHost({ ...o, roots: [root], approver, asker, logger, stepWorkspaces, sandbox: { ...o.sandbox, ...(more?.readOnlyFolders ? { readOnlyFolders: more.readOnlyFolders } : {}), ...(more?.hideSecretsIn ? { hideSecretsIn: more.hideSecretsIn } : {}) } }),
  };
}
