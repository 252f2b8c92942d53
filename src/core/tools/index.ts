/**
 * The built-in tool providers: the workspace tools, and the loop's own conversation tools (they show
 * cards of their own or feed the plan machinery, and may end the turn). Together they are the
 * product's registry; a host adds providers of its own to it.
 */
import { ToolRegistry, fixedProvider, type ToolProvider } from './toolRegistry';
import { applyPatchTool } from './applyPatch';
import { askQuestionTool } from './askQuestion';
import { deleteFileTool } from './deleteFile';
import { diagnosticsTool } from './diagnostics';
import { editFileTool } from './editFile';
import { failStepTool } from './failStep';
import { findFilesTool } from './findFiles';
import { listFilesTool } from './listFiles';
import { proposePlanTool } from './proposePlan';
import { readFileTool } from './readFile';
import { runCommandTool } from './runCommand';
import { searchTool } from './search';
import { writeFileTool } from './writeFile';
import { documentOutlineTool } from './documentOutline';
import { findReferencesTool } from './findReferences';
import { findSymbolTool } from './findSymbol';
import { goToDefinitionTool } from './goToDefinition';
import { hoverTypeTool } from './hoverType';
import { renameSymbolTool } from './renameSymbol';
import { exploreTool } from './explore';

export const WORKSPACE_TOOLS: ToolProvider = fixedProvider('workspace', [
  readFileTool,
  listFilesTool,
  findFilesTool,
  searchTool,
  diagnosticsTool,
  findSymbolTool,
  goToDefinitionTool,
  findReferencesTool,
  documentOutlineTool,
  hoverTypeTool,
  editFileTool,
  applyPatchTool,
  writeFileTool,
  renameSymbolTool,
  deleteFileTool,
  runCommandTool,
]);

export const LOOP_TOOLS: ToolProvider = fixedProvider('loop', [askQuestionTool, proposePlanTool, failStepTool]);

/**
 * The Planner's `explore`, apart from the loop's tools: the task adds it only while explorers are
 * on (`tandem.explorers.enabled`), so turning them off takes it out of the prompt too.
 */
export const EXPLORER_TOOLS: ToolProvider = fixedProvider('explorers', [exploreTool]);

/** A fresh registry of the built-in providers (each agent gets its own, so providers added to one stay there). */
export function productToolRegistry(): ToolRegistry {
  return new ToolRegistry([WORKSPACE_TOOLS, LOOP_TOOLS]);
}
