import * as path from 'node:path';
import { stepWorkspaceName, type LeftoverStep } from '../ports/stepWorkspaces';

/** What the user is told about a step workspace a gone run left (the CLI's stderr, the editor's log and a notice). */
export function describeLeftover(l: LeftoverStep): string {
  const step = path.basename(l.dir).replace(/-[0-9a-f]{8}$/, '').replace(/^step(\d+)$/, 'step $1');
  const what = `${step} of a run that ended abruptly`;
  const place = stepWorkspaceName(l.kind);
  if (l.notKept) return `${what} left its ${place} at ${l.dir}, kept there: its changes could not be saved as a patch (${l.notKept})`;
  // `tandem apply` holds the write tools' rules; `git apply` would hold none of them.
  if (l.patch) return `${what} had changes in its ${place} that were not applied; they are kept in ${l.patch} (apply them in the workspace with: tandem apply ${l.patch}); its ${place} was removed`;
  return `${what} had changed nothing in its ${place}: nothing was lost; its ${place} was removed`;
}
