/**
 * Where project instructions come from, in the order they are read and shown: the cross-tool
 * standard first, then the files users bring from other tools. Each source can be turned off on
 * its own (`tandem.instructions.<setting>`, `TANDEM_INSTRUCTIONS_OFF` in the CLI).
 */
import * as os from 'node:os';
import * as path from 'node:path';

export interface InstructionSource {
  /** The key under `tandem.instructions.` and in `TANDEM_INSTRUCTIONS_OFF`. */
  readonly setting: InstructionSetting;
  /** Path relative to a workspace root. */
  readonly path: string;
  /** A folder of rule files is allowed here too (`.clinerules/`): its `.md`/`.txt` files, by name. */
  readonly folderAllowed?: boolean;
}

export const INSTRUCTION_SETTINGS = ['agentsMd', 'copilotInstructions', 'claudeMd', 'clinerules', 'cursorrules', 'roleFiles'] as const;
export type InstructionSetting = (typeof INSTRUCTION_SETTINGS)[number];

export const INSTRUCTION_SOURCES: readonly InstructionSource[] = [
  { setting: 'agentsMd', path: 'AGENTS.md' },
  { setting: 'copilotInstructions', path: '.github/copilot-instructions.md' },
  { setting: 'claudeMd', path: 'CLAUDE.md' },
  { setting: 'clinerules', path: '.clinerules', folderAllowed: true },
  { setting: 'cursorrules', path: '.cursorrules' },
];

/** A role's own additions: `.tandem/roles/<role id>.md` (turned off with `roleFiles`). */
export function roleFilePath(roleId: string): string {
  return `.tandem/roles/${roleId}.md`;
}

/** The nested file that applies to the folder it is in (nearest wins). */
export const NESTED_INSTRUCTIONS_FILE = 'AGENTS.md';

/** What the user chose about project knowledge (instruction files and skills). */
export interface KnowledgeSettings {
  /** Per source; a missing key means on. */
  instructions: Partial<Record<InstructionSetting, boolean>>;
  /** Token budget for all instruction text sent in one system prompt (nested files count separately, each capped by it too). */
  instructionMaxTokens: number;
  /** Skills (`SKILL.md` folders) on; default on. */
  skills?: boolean;
  /** The user's own skills folder (absolute); the hosts default it to ~/.tandem/skills. */
  userSkillsDir?: string;
}

export const DEFAULT_INSTRUCTION_MAX_TOKENS = 4000;

/** Every source on, the default budget, skills on with the user's folder at ~/.tandem/skills (the editor's settings default to exactly this). */
export function defaultKnowledgeSettings(): KnowledgeSettings {
  return {
    instructions: Object.fromEntries(INSTRUCTION_SETTINGS.map((k) => [k, true])) as Record<InstructionSetting, boolean>,
    instructionMaxTokens: DEFAULT_INSTRUCTION_MAX_TOKENS,
    skills: true,
    userSkillsDir: path.join(os.homedir(), '.tandem', 'skills'),
  };
}

export function sourceEnabled(s: KnowledgeSettings | undefined, setting: InstructionSetting): boolean {
  return s?.instructions[setting] !== false;
}
