// OWNED BY the tools work: see the contract in the comment below; implementation to come.
/**
 * Resolves a path the model gave against the workspace and decides whether it is inside,
 * **after** resolving symlinks (so `/ws/link -> /etc` and `/ws-evil` beside `/ws` are outside).
 */
import type { WorkspaceFs } from './ports';

export interface ResolvedPath {
  /** What the model wrote. */
  input: string;
  /** Real absolute path (symlinks resolved; for a missing file, its nearest existing ancestor's real path + rest). */
  real: string;
  /** True when `real` is inside one of the workspace roots. */
  inside: boolean;
  /** The root it is in (when inside). */
  root?: string;
  /** Path relative to that root with forward slashes (when inside), for display. */
  rel?: string;
}

export class WorkspacePaths {
  constructor(readonly fs: WorkspaceFs) {}
  async resolve(p: string): Promise<ResolvedPath> {
    void p;
    throw new Error('WorkspacePaths.resolve: not implemented yet');
  }
}
