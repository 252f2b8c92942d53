/**
 * A `SKILL.md`: YAML front matter (`name`, `description`) between `---` lines, then the skill's
 * instructions. Parsed with the `yaml` library; a file without a usable name and description is
 * not a skill (and the reason is logged), never half a skill.
 */
import { yamlLibrary } from './yamlParser';

export interface ParsedSkill {
  name: string;
  description: string;
  /** The instructions after the front matter. */
  body: string;
}

/** Names as the Agent Skills format writes them: lower-case words joined by hyphens. Also a tool argument, so kept plain. */
const NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;
/** A description is one line in the prompt: longer ones are cut here. */
export const MAX_DESCRIPTION_CHARS = 300;

export function parseSkillFile(text: string): { ok: true; skill: ParsedSkill } | { ok: false; why: string } {
  const m = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!m) return { ok: false, why: 'no YAML front matter (--- … ---) at the top' };
  let data: unknown;
  try {
    data = yamlLibrary().parse(m[1]!, { maxAliasCount: 10 });
  } catch (err) {
    return { ok: false, why: `front matter is not valid YAML: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}` };
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) return { ok: false, why: 'front matter is not a mapping' };
  const rec = data as Record<string, unknown>;
  const name = typeof rec.name === 'string' ? rec.name.trim() : '';
  const description = typeof rec.description === 'string' ? rec.description.replace(/\s+/g, ' ').trim() : '';
  if (!NAME.test(name)) return { ok: false, why: `name ${JSON.stringify(rec.name ?? null)} is missing or not lower-case letters, digits and hyphens (≤ 64)` };
  if (!description) return { ok: false, why: 'description is missing' };
  return {
    ok: true,
    skill: {
      name,
      description: description.length > MAX_DESCRIPTION_CHARS ? `${description.slice(0, MAX_DESCRIPTION_CHARS - 1)}…` : description,
      body: text.slice(m[0].length).trim(),
    },
  };
}
