/** The tool table. The loop offers each role `toolsForRole(role)` and checks every call again at dispatch. */
import { roleAllows, type RoleDef } from '../roles';
import type { Tool } from './tool';
import { applyPatchTool } from './applyPatch';
import { deleteFileTool } from './deleteFile';
import { diagnosticsTool } from './diagnostics';
import { editFileTool } from './editFile';
import { findFilesTool } from './findFiles';
import { listFilesTool } from './listFiles';
import { readFileTool } from './readFile';
import { runCommandTool } from './runCommand';
import { searchTool } from './search';
import { writeFileTool } from './writeFile';

export const ALL_TOOLS: Tool[] = [
  readFileTool,
  listFilesTool,
  findFilesTool,
  searchTool,
  diagnosticsTool,
  editFileTool,
  applyPatchTool,
  writeFileTool,
  deleteFileTool,
  runCommandTool,
];

export function toolByName(name: string, tools: readonly Tool[] = ALL_TOOLS): Tool | undefined {
  return tools.find((t) => t.name === name);
}

/** Tools the role may be offered: all their static permissions granted, and no shell unless the role has one. */
export function toolsForRole(role: RoleDef, tools: readonly Tool[] = ALL_TOOLS): Tool[] {
  return tools.filter((t) => roleAllows(role, t.permissions) && (t.name !== 'run_command' || role.shell));
}
