import type { HostPorts } from '../ports/ports';

/**
 * Why plan steps that could run side by side must run one at a time here (the setting says one at
 * a time, no git, no commit, or a host that cannot give a step a folder of its own), or undefined
 * when they can run together. Asked when a plan is shown (its card says it before Execute), when a
 * task is resumed (the card's reason was true when it was saved, not necessarily now) and again at
 * Execute. `parallelSteps`: the setting (`tandem.parallelSteps`, CLI `--parallel N`; default 2).
 */
export async function whyOneAtATime(host: HostPorts, parallelSteps?: number): Promise<string | undefined> {
  if (Math.max(1, Math.floor(parallelSteps ?? 2)) <= 1) return 'parallel steps are set to 1 (tandem.parallelSteps, or --parallel in the CLI)';
  if (!host.forRoot || !host.stepWorkspaces) return 'this host cannot give steps folders of their own';
  return host.stepWorkspaces.unavailable(host.fs.roots[0] ?? '.');
}
