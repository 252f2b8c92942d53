import type { HostPorts } from '../ports/ports';

/**
 * Why plan steps that could run side by side must run one at a time here (no git, no commit, or a
 * host that cannot give a step a folder of its own), or undefined when they can run together.
 * Asked when a plan is shown (its card says it before Execute) and again at Execute.
 */
export async function whyOneAtATime(host: HostPorts): Promise<string | undefined> {
  if (!host.forRoot || !host.stepWorkspaces) return 'this host cannot give steps folders of their own';
  return host.stepWorkspaces.unavailable(host.fs.roots[0] ?? '.');
}
