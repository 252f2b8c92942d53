/**
 * What the repository and the user's own folders add to a task: project instructions and skills.
 * One object per task; the turn loop asks it for the role's system text (fixed once read) and tells
 * it which paths the tools touched (nested instructions).
 */
import type { RoleInfo } from '../../protocol';
import type { Logger, WorkspaceFs } from '../ports/ports';
import type { KnowledgeSettings } from './instructionSources';
import { ProjectInstructions, type InstructionsUi } from './projectInstructions';
import { TaskSkills } from './taskSkills';
import type { TaskFactSection } from '../facts/taskFactSection';

export class ProjectKnowledge {
  readonly instructions: ProjectInstructions;
  /** Also the tool provider of `load_skill`: add it to the task's tool registry. */
  readonly skills: TaskSkills;

  /** Facts learned in earlier tasks, checked before each request (last in the prompt: they may change between requests). */
  private readonly facts: TaskFactSection | undefined;

  constructor(deps: { fs: WorkspaceFs; settings(): KnowledgeSettings | undefined; ui: InstructionsUi; logger: Logger; facts?: TaskFactSection }) {
    this.facts = deps.facts;
    this.instructions = new ProjectInstructions(deps);
    this.skills = new TaskSkills({
      fs: deps.fs,
      logger: deps.logger,
      settings: () => {
        const s = deps.settings();
        return { enabled: s?.skills !== false, ...(s?.userSkillsDir ? { userDir: s.userSkillsDir } : {}) };
      },
    });
  }

  async systemText(role: RoleInfo): Promise<string | undefined> {
    const parts = [await this.instructions.systemText(role), await this.skills.systemText(), await this.facts?.systemText(role)].filter((x): x is string => !!x);
    return parts.length ? parts.join('\n\n') : undefined;
  }

  touched(paths: readonly string[]): Promise<string | undefined> {
    return this.instructions.touched(paths);
  }
}
