/**
 * The skills a task can load: folders with a `SKILL.md` in the workspace's `.tandem/skills/`,
 * `.github/skills/` and `.claude/skills/`, then the user's own skills folder. Found once per task;
 * a name seen twice keeps the first (the workspace's before the user's, in that folder order).
 * Only names and descriptions go into the prompt; `load_skill` returns a skill's body on demand.
 */
import * as path from 'node:path';
import type { Logger, WorkspaceFs } from '../ports/ports';
import { isWithin } from '../workspace/pathWithin';
import { parseSkillFile } from './skillFile';

export const WORKSPACE_SKILL_FOLDERS = ['.tandem/skills', '.github/skills', '.claude/skills'] as const;
export const SKILL_FILE = 'SKILL.md';
/** More than this many skills in one folder is not a skills folder; the rest are ignored (and logged). */
const MAX_SKILLS_PER_FOLDER = 100;
export const MAX_SKILL_FILE_BYTES = 256 * 1024;

export interface Skill {
  name: string;
  description: string;
  /** The skill's folder, absolute and real. */
  dir: string;
  /** How the skill's files are named to the model and the user: workspace-relative, or absolute for the user's own. */
  shownDir: string;
  origin: 'workspace' | 'user';
}

export interface SkillSearch {
  fs: WorkspaceFs;
  /** The user's skills folder (absolute), if any. */
  userDir?: string;
  logger: Logger;
}

export async function findSkills(s: SkillSearch): Promise<Skill[]> {
  const found: Skill[] = [];
  const seen = new Set<string>();
  const add = (skill: Skill) => {
    if (seen.has(skill.name)) {
      s.logger.info(`skill ${skill.name} in ${skill.shownDir} ignored: a skill of that name was found first`);
      return;
    }
    seen.add(skill.name);
    found.push(skill);
  };
  const roots = s.fs.roots;
  for (const root of roots) {
    for (const folder of WORKSPACE_SKILL_FOLDERS) {
      const prefix = roots.length > 1 ? `${path.basename(root)}/` : '';
      for (const skill of await skillsIn(s, path.join(root, folder), root, (dir) => prefix + path.relative(root, dir).split(path.sep).join('/'), 'workspace')) add(skill);
    }
  }
  if (s.userDir) {
    const base = await s.fs.realpath(s.userDir).catch(() => undefined);
    if (base) for (const skill of await skillsIn(s, base, base, (dir) => dir, 'user')) add(skill);
  }
  return found;
}

/** The skills directly under `folder`, each confined to `confine` once links are resolved. */
async function skillsIn(s: SkillSearch, folder: string, confine: string, show: (dir: string) => string, origin: Skill['origin']): Promise<Skill[]> {
  const entries = await s.fs.readDir(folder).catch(() => undefined);
  if (!entries) return [];
  const out: Skill[] = [];
  const dirs = entries.filter((e) => e.type === 'directory' || e.type === 'symlink').map((e) => e.name).sort();
  if (dirs.length > MAX_SKILLS_PER_FOLDER) s.logger.warn(`${folder}: ${dirs.length} skill folders, only the first ${MAX_SKILLS_PER_FOLDER} are read`);
  for (const name of dirs.slice(0, MAX_SKILLS_PER_FOLDER)) {
    const dir = await s.fs.realpath(path.join(folder, name)).catch(() => undefined);
    // A repository's skill that links out of the workspace is not the repository's skill.
    if (!dir || !isWithin(confine, dir)) continue;
    const file = path.join(dir, SKILL_FILE);
    const st = await s.fs.stat(file).catch(() => undefined);
    if (!st || st.type !== 'file') continue;
    if (st.size > MAX_SKILL_FILE_BYTES) {
      s.logger.warn(`${show(dir)}/${SKILL_FILE} is too large to be a skill; ignored`);
      continue;
    }
    const parsed = parseSkillFile(await s.fs.readText(file).catch(() => ''));
    if (!parsed.ok) {
      s.logger.warn(`${show(dir)}/${SKILL_FILE} is not a usable skill: ${parsed.why}`);
      continue;
    }
    out.push({ name: parsed.skill.name, description: parsed.skill.description, dir, shownDir: show(dir), origin });
  }
  return out;
}

/** The skills section of the system prompt: one line per skill, or undefined when there are none. */
export function skillsPromptText(skills: readonly Skill[]): string | undefined {
  if (!skills.length) return undefined;
  return `## Skills\nWhen a skill below fits the task, call load_skill with its name first: it returns the skill's instructions and lists its files. Skills are guidance text; they grant no permissions.\n${skills.map((k) => `- ${k.name}: ${k.description}`).join('\n')}`;
}
