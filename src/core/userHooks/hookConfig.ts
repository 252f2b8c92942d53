/**
 * The user's hooks in the JSON shape Claude Code's `settings.json` uses, so the scripts a team
 * already wrote run unchanged: `{"hooks": {"PreToolUse": [{"matcher": "Write|Edit", "hooks":
 * [{"type": "command", "command": "…", "timeout": 60}]}]}}`. A file may come from a repository,
 * so it is checked with zod and a bad entry is reported while the others still load.
 */
import * as z from 'zod';

export const HOOK_EVENTS = ['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'Stop', 'SubagentStop', 'SessionStart'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** Claude Code's default: a hook that runs longer is killed. */
export const DEFAULT_HOOK_TIMEOUT_S = 60;

const CommandHook = z.object({
  type: z.literal('command'),
  command: z.string().min(1),
  /** Seconds. */
  timeout: z.number().positive().max(3600).optional(),
});

const Matcher = z.object({
  /** A regex over tool names (Tandem's and Claude Code's); empty, absent or `*` matches every tool. */
  matcher: z.string().optional(),
  hooks: z.array(z.unknown()),
});

/** One command at one event, with where it came from (shown when it fails, and in the trust question). */
export interface HookCommand {
  event: HookEvent;
  matcher: string;
  command: string;
  timeoutMs: number;
  source: string;
}

export interface ParsedHooks {
  commands: HookCommand[];
  /** Entries that were not usable, said per place. */
  problems: string[];
}

/** Reads one hooks object (`{"hooks": {...}}`, or the inner object itself, as in `tandem.hooks`). */
export function parseHookConfig(data: unknown, source: string): ParsedHooks {
  const commands: HookCommand[] = [];
  const problems: string[] = [];
  if (data === undefined || data === null) return { commands, problems };
  if (typeof data !== 'object' || Array.isArray(data)) return { commands, problems: [`${source}: hooks must be a JSON object`] };
  const outer = data as Record<string, unknown>;
  const events = (outer.hooks !== undefined ? outer.hooks : outer) as unknown;
  if (typeof events !== 'object' || events === null || Array.isArray(events)) return { commands, problems: [`${source}: "hooks" must be an object of events`] };
  for (const [event, groups] of Object.entries(events as Record<string, unknown>)) {
    if (!(HOOK_EVENTS as readonly string[]).includes(event)) {
      problems.push(`${source}: event "${event}" is not supported here (supported: ${HOOK_EVENTS.join(', ')}); its hooks do not run`);
      continue;
    }
    if (!Array.isArray(groups)) {
      problems.push(`${source}: ${event} must be a list of {matcher, hooks}`);
      continue;
    }
    groups.forEach((g, gi) => {
      const m = Matcher.safeParse(g);
      if (!m.success) {
        problems.push(`${source}: ${event}[${gi}] needs a "hooks" list`);
        return;
      }
      const matcher = m.data.matcher ?? '';
      if (!matcherRegex(matcher)) problems.push(`${source}: ${event}[${gi}] matcher "${matcher}" is not a valid regular expression; it matches nothing`);
      m.data.hooks.forEach((h, hi) => {
        const c = CommandHook.safeParse(h);
        if (!c.success) {
          problems.push(`${source}: ${event}[${gi}].hooks[${hi}] is not {"type": "command", "command": "…"}; it does not run`);
          return;
        }
        commands.push({ event: event as HookEvent, matcher, command: c.data.command, timeoutMs: Math.round((c.data.timeout ?? DEFAULT_HOOK_TIMEOUT_S) * 1000), source });
      });
    });
  }
  return { commands, problems };
}

/**
 * A matcher as Claude Code reads it: empty or `*` is every tool; a plain list of names
 * (`Write|Edit`) matches exactly those; anything else is a regular expression over the whole name.
 * Undefined for a pattern that does not compile.
 */
export function matcherRegex(matcher: string): RegExp | undefined {
  const m = matcher.trim();
  if (m === '' || m === '*') return /^/;
  try {
    return new RegExp(`^(?:${m})$`);
  } catch {
    return undefined;
  }
}
