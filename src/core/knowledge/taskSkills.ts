/**
 * A task's skills: found once (on the first request), listed in the prompt by name and description,
 * loaded by `load_skill`. Also the tool provider that offers `load_skill` — only once there is a
 * skill to load, so a workspace without skills pays nothing in its prompt.
 */
import type { Logger, WorkspaceFs } from '../ports/ports';
import type { Tool } from '../tools/tool';
import type { ToolProvider } from '../tools/toolRegistry';
import { loadSkillTool, type SkillLibrary } from './loadSkill';
import { findSkills, skillsPromptText, type Skill } from './skillCatalog';

export interface TaskSkillsDeps {
  fs: WorkspaceFs;
  /** Whether skills are on, and the user's own folder; read when the skills are first found. */
  settings(): { enabled: boolean; userDir?: string };
  logger: Logger;
}

export class TaskSkills implements ToolProvider, SkillLibrary {
  readonly id = 'skills';
  private found: Promise<readonly Skill[]> | undefined;
  private offered: Tool[] = [];
  private readonly listeners = new Set<() => void>();
  private readonly tool = loadSkillTool(this);

  constructor(private readonly deps: TaskSkillsDeps) {}

  skills(): Promise<readonly Skill[]> {
    this.found ??= this.find();
    return this.found;
  }

  private async find(): Promise<readonly Skill[]> {
    const s = this.deps.settings();
    if (!s.enabled) return [];
    const skills = await findSkills({ fs: this.deps.fs, logger: this.deps.logger, ...(s.userDir ? { userDir: s.userDir } : {}) }).catch((err) => {
      this.deps.logger.warn(`skills not read: ${err instanceof Error ? err.message : String(err)}`);
      return [] as Skill[];
    });
    if (skills.length) {
      this.offered = [this.tool];
      for (const l of this.listeners) l();
    }
    return skills;
  }

  /** The skills section of the system prompt (found on the first call). */
  async systemText(): Promise<string | undefined> {
    return skillsPromptText(await this.skills());
  }

  tools(): readonly Tool[] {
    return this.offered;
  }

  onDidChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
