/**
 * `--attach FILE`: checked before the run starts, so a typo or a file outside the workspace is a
 * usage error (exit 2) rather than a run the user did not mean. Checked the same way a mention is:
 * inside the workspace after resolving symlinks, not excluded by the ignore rules, a text file.
 */
import * as path from 'node:path';
import { resolveMentions } from '../core/mentions/resolveMentions';
import type { HostPorts } from '../core/ports/ports';
import { WorkspacePaths } from '../core/workspace/workspacePaths';

/** The files as the agent should name them (workspace-relative where they are inside), or the first problem. */
export async function checkAttachFiles(host: HostPorts, ws: string, absFiles: readonly string[]): Promise<{ files: string[] } | { error: string }> {
  if (absFiles.length === 0) return { files: [] };
  const paths = new WorkspacePaths(host.fs);
  const files = absFiles.map((f) => {
    const rel = path.relative(ws, f);
    return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : f;
  });
  const { attachments } = await resolveMentions('', { host, paths }, { extraFiles: files });
  const missing = files.find((f) => !attachments.some((a) => a.label === f));
  if (missing) return { error: `--attach ${missing}: no such file in the workspace` };
  const bad = attachments.find((a) => a.error);
  if (bad) return { error: `--attach ${bad.label}: ${bad.note ?? 'not attached'}` };
  const folder = attachments.find((a) => a.kind === 'folder');
  if (folder) return { error: `--attach ${folder.label}: a folder; attach files (or mention @${folder.label} in the prompt for a listing)` };
  return { files };
}
