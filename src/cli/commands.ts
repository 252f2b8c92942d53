/**
 * The `tandem` command line as data: every command, every option and which commands take it. The
 * parser (args.ts) hands this table to `node:util` parseArgs, and the usage text (usage.ts) is
 * written from it, so a flag cannot be parsed without being documented or the other way round.
 */
import { roleAccess, type RoleInfo, type RoleRegistry } from '../protocol';
import { STEP_FAILURE_CHOICES } from '../core/settings/settings';

export type CommandName = 'run' | 'plan' | 'review' | 'history' | 'facts' | 'apply';

export const APPROVE_MODES = ['never', 'edits', 'plan', 'all'] as const;
export type ApproveMode = (typeof APPROVE_MODES)[number];

/** What the table's texts and checks depend on: the roles in force (the product's, or a test's). */
export interface CliContext {
  roles: RoleRegistry<RoleInfo>;
}

export interface OptionDef {
  type: 'string' | 'boolean';
  /** Where one command takes the flag as another type (a switch there, a value elsewhere). */
  typeIn?: Partial<Record<CommandName, 'string' | 'boolean'>>;
  short?: string;
  /** Each occurrence is kept; otherwise the last one wins. */
  multiple?: boolean;
  /** Given twice is an error (a second file name is a mistake, not an override). */
  once?: boolean;
  /** The value's placeholder in the usage: DIR, FILE.json; a function when it comes from data. */
  value?: string | ((ctx: CliContext) => string);
  /** Usage lines: the first beside the flag, the rest under it. */
  help: readonly string[] | ((ctx: CliContext) => readonly string[]);
  /** Where a command's usage says it differently. */
  helpIn?: Partial<Record<CommandName, readonly string[]>>;
  commands: readonly CommandName[];
  /** What is said when the value is missing, after the flag (default "needs a value"). */
  missing?: string;
  /** Rejects a value with a message, or accepts it (undefined). */
  check?(value: string, ctx: CliContext): string | undefined;
}

const oneOf = (flag: string, allowed: readonly string[], value: string) =>
  allowed.includes(value) ? undefined : `${flag} must be one of ${allowed.join(', ')} (got "${value}")`;

/** One line per role, from the role table: what it may do; the first is the default. */
const roleHelp = ({ roles }: CliContext) =>
  roles.list.map((r, i) => {
    const what = [roleAccess(r), r.mayPlan ? 'proposes a plan' : '', r.executesPlans ? 'executes plans' : ''].filter(Boolean).join(', ');
    return `${r.id}: ${what}${i === 0 ? ' (default)' : ''}`;
  });

const RUNS: readonly CommandName[] = ['run', 'plan'];
/** Commands that talk to a model. */
const ASKS: readonly CommandName[] = ['run', 'plan', 'review'];

export const REVIEW_WHEN = ['plan', 'steps', 'all'] as const;
export type ReviewWhen = (typeof REVIEW_WHEN)[number];

/** In usage order. */
export const OPTIONS = {
  workspace: { type: 'string', value: 'DIR', help: ['workspace folder (default: the current directory)'], commands: ['run', 'plan', 'review', 'history', 'facts', 'apply'] },
  role: {
    type: 'string',
    multiple: true,
    value: ({ roles }) => roles.ids.join('|'),
    help: roleHelp,
    commands: RUNS,
    check: (v, { roles }) => oneOf('--role', roles.ids, v),
  },
  model: {
    type: 'string',
    value: 'M',
    help: ['model for the role (default: $TANDEM_MODEL or gpt-4o-mini)'],
    helpIn: { facts: ['consolidate: the model asked (default: $TANDEM_SUMMARY_MODEL, else $TANDEM_MODEL)'] },
    commands: [...ASKS, 'facts'],
    check: (v) => (v.trim() ? undefined : '--model needs a value'),
  },
  'base-url': { type: 'string', value: 'URL', help: ['endpoint, e.g. http://127.0.0.1:8080/v1'], commands: [...ASKS, 'facts'] },
  approve: {
    type: 'string',
    value: APPROVE_MODES.join('|'),
    help: [
      'what may happen without asking:',
      '  never  deny every action that needs approval',
      '         (the default without a terminal)',
      '  edits  allow edits and new files inside the workspace',
      '  plan   with --plan: allow what each step declares (its',
      "         files and commands); nothing else",
      '  all    allow every action inside the workspace',
      'Paths outside the workspace are never allowed by a flag.',
      "While a plan runs, an action outside the step's scope is an",
      'amendment: no flag allows it (asked with a terminal; without',
      'one the run stops with exit code 3 and prints it).',
      'With a terminal and no flag, each action is asked (y/n).',
    ],
    commands: RUNS,
    check: (v) => oneOf('--approve', APPROVE_MODES, v),
  },
  answer: {
    type: 'string',
    value: 'default',
    help: ["answer the agent's questions with their default option", '(otherwise a question ends the run with exit code 3)'],
    commands: RUNS,
    check: (v) => (v === 'default' ? undefined : `--answer must be "default" (got "${v}")`),
  },
  json: {
    type: 'boolean',
    help: ['print one event per line (the objects the editor panel gets)'],
    helpIn: { history: ['one JSON object per task (list), or the task\'s cards (show)'], facts: ['list: one JSON object per fact, with its checked state'] },
    commands: ['run', 'plan', 'review', 'history', 'facts'],
  },
  plan: {
    type: 'string',
    value: 'FILE.json',
    help: ({ roles }) => [`run: execute this plan file step by step (needs --role ${roles.executor?.id ?? 'ROLE'})`],
    helpIn: { review: ['the plan file the Reviewer judges (required)'] },
    commands: ['run', 'review'],
    missing: 'needs a file name',
    once: true,
  },
  review: {
    type: 'string',
    value: REVIEW_WHEN.join('|'),
    help: ({ roles }) => [
      `with --plan: the ${roles.reviewer?.label ?? 'reviewing role'} judges`,
      '  plan   the plan before it runs (a verdict other',
      '         than ok stops the run: exit 1)',
      '  steps  every executed step (replan stops: exit 1)',
      '  all    both',
    ],
    commands: ['run'],
    check: (v) => oneOf('--review', REVIEW_WHEN, v),
  },
  parallel: {
    type: 'string',
    value: 'N',
    help: [
      'with --plan: run up to N independent steps at once (default 2),',
      '  each in a workspace of its own (copy-on-write on Linux,',
      '  else a git worktree); 1 = one at a time.',
      '  Outside git, steps run one at a time.',
    ],
    commands: ['run'],
    once: true,
    check: (v) => (/^[1-9][0-9]?$/.test(v) ? undefined : `--parallel needs a whole number from 1 to 99 (got "${v}")`),
  },
  'on-failure': {
    type: 'string',
    value: 'finish|stop',
    help: [
      'with --plan: when a step fails, the other running steps',
      '  finish their step (default) or are stopped',
    ],
    commands: ['run'],
    once: true,
    check: (v) => oneOf('--on-failure', STEP_FAILURE_CHOICES, v),
  },
  step: {
    type: 'string',
    value: 'N',
    help: [
      'with --plan: run only step N, in a workspace of its own, and write',
      '  its changes to --emit-patch (the other steps run elsewhere:',
      '  a CI job each; tandem apply puts the patches together)',
    ],
    commands: ['run'],
    once: true,
    check: (v) => (/^[1-9][0-9]{0,4}$/.test(v) ? undefined : `--step needs a step number (got "${v}")`),
  },
  apply: {
    type: 'string',
    // `tandem facts consolidate --apply` is a switch; `tandem run --step N --apply PATCH` names a file.
    typeIn: { facts: 'boolean' },
    multiple: true,
    value: 'PATCH',
    help: ['with --step: apply this step patch first (a step it depends on;', '  repeatable, in order); refused whole: exit 2'],
    helpIn: { facts: ['consolidate: keep what the summary model proposes (else it is only shown)'] },
    commands: ['run', 'facts'],
    missing: 'needs a patch file',
  },
  'emit-patch': {
    type: 'string',
    value: 'OUT',
    help: ["with --step: where the step's patch is written (required)"],
    commands: ['run'],
    missing: 'needs a file name',
    once: true,
  },
  out: {
    type: 'string',
    value: 'FILE',
    help: ['plan: where the validated plan is written (required)'],
    helpIn: { history: ['export: write the Markdown to FILE instead of printing it'] },
    commands: ['plan', 'history'],
    missing: 'needs a file name',
    once: true,
  },
  'mcp-config': {
    type: 'string',
    multiple: true,
    value: 'FILE',
    help: ['MCP servers to start, in VS Code\'s mcp.json format', '(${input:id} values from $TANDEM_MCP_INPUT_<ID>)'],
    commands: RUNS,
    missing: 'needs a file name',
  },
  'allow-tool': {
    type: 'string',
    multiple: true,
    value: 'NAME',
    help: ['let this MCP tool (server__tool) run without asking;', '--approve never covers MCP tools'],
    commands: RUNS,
    check: (v) => (/^[A-Za-z0-9_-]+__[A-Za-z0-9_-]+$/.test(v) ? undefined : `--allow-tool names an MCP tool as server__tool (got "${v}")`),
  },
  hooks: {
    type: 'string',
    multiple: true,
    value: 'FILE',
    help: ['run the hooks in this file (Claude Code\'s "hooks" JSON; repeatable);', 'a repository\'s .tandem/hooks.json runs only when named here'],
    commands: RUNS,
    missing: 'needs a file name',
  },
  attach: {
    type: 'string',
    multiple: true,
    value: 'FILE',
    help: ['attach a file to the prompt (repeatable; also @path in the prompt);', 'only files inside the workspace and not ignored'],
    commands: RUNS,
  },
  resume: { type: 'string', value: 'ID', help: ['continue a saved task (a unique prefix of its id is enough)'], commands: RUNS },
  'history-dir': { type: 'string', value: 'DIR', help: ['where tasks are saved (default below)'], helpIn: { facts: ['the history folder the facts file is in (default below)'] }, commands: ['run', 'plan', 'review', 'history', 'facts'] },
  'no-history': { type: 'boolean', help: ['save nothing of this run (facts are still sent, none learned)'], commands: ASKS },
  'no-facts': { type: 'boolean', help: ['send no facts about the workspace and learn none'], commands: RUNS },
  cite: {
    type: 'string',
    multiple: true,
    value: 'PATH:START-END',
    help: ['add: the lines the fact rests on (repeatable); refused', 'where a read would be (.env, ignored, outside)'],
    commands: ['facts'],
    check: (v) => (/^.+:\d+(-\d+)?$/.test(v) ? undefined : `--cite names lines as PATH:START-END (got "${v}")`),
  },
  global: { type: 'boolean', help: ['add, clear: your facts for every workspace (kept in the data', 'folder itself; they cite no file, lines belong to one workspace)'], commands: ['facts'] },
  call: { type: 'string', value: 'CALL_ID', help: ['revert: undo only this tool call'], commands: ['history'] },
  help: { type: 'boolean', short: 'h', help: ['show this help'], commands: ['run', 'plan', 'review', 'history', 'facts', 'apply'] },
} satisfies Record<string, OptionDef>;

export type OptionName = keyof typeof OPTIONS;

type Synopsis = readonly (readonly [string, string])[];

export interface CommandDef {
  /** Usage lines, each a synopsis and what it does. */
  synopsis(ctx: CliContext): Synopsis;
}

export const COMMANDS: Record<CommandName, CommandDef> = {
  run: {
    synopsis: ({ roles }) => [
      ['tandem run [options] "<prompt>"', ''],
      [`tandem run --role ${roles.executor?.id ?? 'ROLE'} --plan FILE.json [options]`, 'execute a plan file step by step'],
      [`tandem run --role ${roles.executor?.id ?? 'ROLE'} --plan FILE.json --step N [--apply PATCH]… --emit-patch OUT`, "run one step (a CI job), write its patch"],
      ['tandem run --resume ID [options] "<prompt>"', 'continue a saved task'],
    ],
  },
  plan: { synopsis: ({ roles }) => [['tandem plan [options] "<prompt>" --out FILE.json', `write the ${roles.planner?.label ?? 'planning role'}'s validated plan`]] },
  review: { synopsis: ({ roles }) => [['tandem review --plan FILE.json [options]', `the ${roles.reviewer?.label ?? 'reviewing role'}'s verdict on a plan (exit 0 ok, 1 otherwise)`]] },
  history: {
    synopsis: () => [
      ['tandem history [--workspace DIR] [--json]', 'list saved tasks, newest first'],
      ['tandem history show ID [--json]', 'print a task (read-only)'],
      ['tandem history export ID [--out FILE.md]', 'the task as Markdown'],
      ['tandem history delete ID', 'delete a task and its checkpoints'],
      ['tandem history revert ID [--call CALL_ID]', 'undo one tool call, or the whole task'],
    ],
  },
  apply: { synopsis: () => [['tandem apply PATCH… [--workspace DIR]', 'apply step patches, whole or nothing (exit 2 names a refused path)']] },
  facts: {
    synopsis: () => [
      ['tandem facts [list] [--workspace DIR] [--json]', "the workspace's facts, each checked now (stale: not sent)"],
      ['tandem facts add "<sentence>" [--cite PATH:START-END]…', 'add a fact of your own'],
      ['tandem facts add --global "<sentence>"', 'add a fact for every workspace'],
      ['tandem facts rm ID', 'forget one fact (a unique prefix of its id is enough)'],
      ['tandem facts clear [--global]', "forget every fact of the workspace (or every global one)"],
      ['tandem facts consolidate [--apply]', 'the summary model proposes merging and dropping facts; --apply keeps it'],
      ['tandem facts undo', 'put back the facts from before the last consolidation'],
    ],
  },
};

export function optionsOf(command: CommandName): [OptionName, OptionDef][] {
  return (Object.entries(OPTIONS) as [OptionName, OptionDef][])
    .filter(([, o]) => o.commands.includes(command))
    .map(([name, o]) => [name, o.typeIn?.[command] ? { ...o, type: o.typeIn[command]! } : o]);
}

/** Exit codes, with what the usage says of each. */
export const EXIT = { done: 0, error: 1, usage: 2, waiting: 3, interrupted: 130 } as const;
export const EXIT_HELP: Record<keyof typeof EXIT, string> = {
  done: 'the turn ended',
  error: 'an error (endpoint, network, tool failures, internal)',
  usage: 'bad usage',
  waiting: 'stopped on a question or a plan amendment it may not answer, or at the tool-call limit',
  interrupted: 'stopped by Ctrl-C',
};
