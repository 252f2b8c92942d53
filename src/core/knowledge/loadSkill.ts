import * as path from 'node:path';
import * as z from 'zod';
import type { Skill } from './skillCatalog';
import { MAX_SKILL_FILE_BYTES, SKILL_FILE } from './skillCatalog';
import { parseSkillFile } from './skillFile';
import type { WorkspaceFs } from '../ports/ports';
import { ToolError, type Tool } from '../tools/tool';
import { defineTool } from '../tools/toolSupport';

/** The skills this task can load (found once per task). */
export interface SkillLibrary {
  skills(): Promise<readonly Skill[]>;
}

/** A skill lists at most this many of its files (deeper trees are the agent's to explore with list_files). */
const MAX_LISTED_FILES = 100;

const input = z.object({ name: z.string().min(1).max(64).describe('The skill name, as listed under Skills') });
type Input = z.infer<typeof input>;

/** `load_skill`: a skill's instructions and the list of its other files, which the agent reads with read_file. */
export function loadSkillTool(library: SkillLibrary): Tool<Input> {
  return defineTool<Input>({
    name: 'load_skill',
    description: "Load a skill listed under Skills: returns its instructions and lists its files (read them with read_file when the instructions say so).",
    input,
    permissions: ['read'],
    readOnly: true,
    display: { kind: 'skill', title: 'Load skill', headline: (i) => ({ verb: 'Load skill', done: 'Loaded skill', detail: i.name, summary: `load skill ${i.name}` }) },
    async run(i, ctx) {
      const skills = await library.skills();
      const skill = skills.find((s) => s.name === i.name);
      if (!skill) throw new ToolError(`There is no skill named "${i.name}". Skills: ${skills.map((s) => s.name).join(', ') || 'none'}.`);
      // Skills are listed without following links, and loaded the same way: SKILL.md is judged on the
      // file actually opened (a link, or a folder swapped for one, since the listing is refused).
      let body: string;
      try {
        body = await ctx.host.fs.readTextWithin(path.join(skill.dir, SKILL_FILE), skill.dir, MAX_SKILL_FILE_BYTES);
      } catch (e) {
        throw new ToolError(`The skill "${i.name}" can no longer be read: ${(e as Error).message}.`);
      }
      const parsed = parseSkillFile(body);
      if (!parsed.ok) throw new ToolError(`The skill "${i.name}" can no longer be read: ${parsed.why}.`);
      const files = await listSkillFiles(ctx.host.fs, skill.dir);
      const listed = files.slice(0, MAX_LISTED_FILES).map((f) => `- ${skill.shownDir}/${f}`);
      const more = files.length > MAX_LISTED_FILES ? `\n(${files.length - MAX_LISTED_FILES} more files not listed)` : '';
      const fileText = listed.length ? `\n\nFiles of this skill (read them with read_file when needed):\n${listed.join('\n')}${more}` : '';
      return {
        content: `# Skill ${skill.name} (${skill.shownDir}/${SKILL_FILE})\n${parsed.skill.body || '(no instructions beyond the description)'}${fileText}`,
        display: `Loaded skill ${skill.name}: ${skill.description}${listed.length ? ` (${files.length} file${files.length === 1 ? '' : 's'})` : ''}`,
      };
    },
  });
}

/** The skill's files other than SKILL.md, relative to its folder, depth first by name; links and hidden entries skipped. */
async function listSkillFiles(fs: WorkspaceFs, dir: string, rel = '', out: string[] = []): Promise<string[]> {
  if (out.length > MAX_LISTED_FILES) return out;
  const entries = (await fs.readDir(path.join(dir, rel)).catch(() => [])).sort((a, b) => a.name.localeCompare(b.name));
  for (const e of entries) {
    if (e.name.startsWith('.')) continue;
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.type === 'file' && r !== SKILL_FILE) out.push(r);
    else if (e.type === 'directory') await listSkillFiles(fs, dir, r, out);
  }
  return out;
}
