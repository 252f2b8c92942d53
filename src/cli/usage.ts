/**
 * The usage texts, written from the command table (commands.ts), the environment table and the
 * roles in force (a test may run the CLI with a role registry of its own).
 */
import { PRODUCT_ROLE_INFO, type RoleInfo, type RoleRegistry } from '../protocol';
import { COMMANDS, EXIT, EXIT_HELP, OPTIONS, type CliContext, type CommandName, type OptionDef } from './commands';
import { ENVIRONMENT } from './settingsFromEnv';

/** Where an option's help starts (as in most CLIs' help: two spaces, the flag, padding). */
const HELP_COLUMN = 28;

function synopsis(lines: readonly (readonly [string, string])[]): string {
  const width = Math.max(...lines.map(([s, what]) => (what ? s.length : 0))) + 3;
  return lines.map(([s, what], i) => `${i === 0 ? 'Usage: ' : '       '}${what ? s.padEnd(width) + what : s}`).join('\n');
}

function optionLines(commands: readonly CommandName[], ctx: CliContext): string {
  const out: string[] = [];
  for (const [name, o] of Object.entries(OPTIONS) as [string, OptionDef][]) {
    const shown = commands.filter((c) => o.commands.includes(c));
    if (shown.length === 0) continue;
    const help = (shown.length === 1 && o.helpIn?.[shown[0]!]) || o.help;
    // A switch in this command (typeIn) shows no value.
    const asHere = shown.length === 1 && o.typeIn?.[shown[0]!] === 'boolean' ? { ...o, value: undefined } : o;
    out.push(...flagLines(name, asHere, typeof help === 'function' ? help(ctx) : help, ctx));
  }
  return out.join('\n');
}

function flagLines(name: string, o: OptionDef, help: readonly string[], ctx: CliContext): string[] {
  const value = typeof o.value === 'function' ? o.value(ctx) : o.value;
  const flag = `  ${o.short ? `-${o.short}, ` : ''}--${name}${value ? ` ${value}` : ''}`;
  const [first = '', ...rest] = help;
  const head = flag.length < HELP_COLUMN ? flag.padEnd(HELP_COLUMN) + first : `${flag} ${first}`;
  return [head, ...rest.map((l) => `${' '.repeat(HELP_COLUMN)}${l}`)];
}

function environmentLines(which: (e: (typeof ENVIRONMENT)[number]) => boolean): string {
  const list = ENVIRONMENT.filter(which);
  const width = Math.max(...list.map((e) => e.names.length)) + 3;
  return list.map((e) => `  ${e.names.padEnd(width)}${e.help}`).join('\n');
}

const exitLines = () =>
  (Object.keys(EXIT) as (keyof typeof EXIT)[]).map((k) => `  ${String(EXIT[k]).padEnd(4)}${EXIT_HELP[k]}`).join('\n');

/** `tandem --help`: run and plan. */
export function usage(roles: RoleRegistry<RoleInfo> = PRODUCT_ROLE_INFO): string {
  const ctx = { roles };
  const [run, ...runMore] = COMMANDS.run.synopsis(ctx);
  return `${synopsis([run!, ...COMMANDS.plan.synopsis(ctx), ...runMore, ...COMMANDS.review.synopsis(ctx), ...COMMANDS.apply.synopsis(ctx), ['tandem history [--workspace DIR] [--json]', 'saved tasks (tandem history --help)'], ['tandem facts [list|add|rm|clear]', 'facts about the workspace (tandem facts --help)'], ['tandem eval [options]', 'measure models on tasks (tandem eval --help)']])}

Runs one turn of the Tandem agent on a workspace, headless, against any
OpenAI-compatible endpoint, and exits when the turn ends.

Options:
${optionLines(['run', 'plan', 'review'], ctx)}

Environment:
${environmentLines(() => true)}

Exit codes:
${exitLines()}
`;
}

/** `tandem history --help`. */
export function historyUsage(roles: RoleRegistry<RoleInfo> = PRODUCT_ROLE_INFO): string {
  const ctx = { roles };
  return `${synopsis([...COMMANDS.history.synopsis(ctx), COMMANDS.run.synopsis(ctx).at(-1)!])}

IDs may be shortened to a unique prefix. Tasks are kept per workspace in
$TANDEM_DATA_DIR, else $XDG_DATA_HOME/tandem (~/.local/share/tandem), outside the
workspace; --history-dir DIR overrides.

Options:
${optionLines(['history'], ctx)}

Environment for runs:
${environmentLines((e) => !!e.task)}
`;
}

/** `tandem facts --help`. */
export function factsUsage(roles: RoleRegistry<RoleInfo> = PRODUCT_ROLE_INFO): string {
  const ctx = { roles };
  return `${synopsis(COMMANDS.facts.synopsis(ctx))}

Facts are short things learned about a workspace (by the Reviewer's verdicts, or
added by you), sent to the planning and executing roles of later tasks. Each cites
the lines (or the command output) it rests on and is checked before use: cited
lines that changed, a file that is gone, or an age past TANDEM_FACTS_MAX_AGE_DAYS
make it stale, and a stale fact is not sent. They are kept per workspace beside
its history ($TANDEM_DATA_DIR, else $XDG_DATA_HOME/tandem); your global facts
(\`facts add --global\`) in that data folder itself, sent in every workspace.
\`tandem run --no-facts\` runs without them.

Options:
${optionLines(['facts'], ctx)}
`;
}

export const USAGE = usage();
export const HISTORY_USAGE = historyUsage();
export const FACTS_USAGE = factsUsage();
