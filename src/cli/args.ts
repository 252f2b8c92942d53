/**
 * The `tandem` argv, parsed with `node:util` parseArgs (strict) against the command table
 * (commands.ts). Flags may come before or after the prompt, `--flag=value` works, `--` ends the
 * options. What the table cannot say (which role a command allows, what goes together) is checked
 * here, with the messages the usage errors show.
 */
import { parseArgs as parseArgv } from 'node:util';
import { PRODUCT_ROLE_INFO, type RoleId, type RoleInfo, type RoleRegistry } from '../protocol';
import type { StepFailureChoice } from '../core/settings/settings';
import { OPTIONS, optionsOf, type ApproveMode, type CliContext, type CommandName, type OptionDef, type OptionName, type ReviewWhen } from './commands';

export interface RunArgs {
  kind: 'run';
  /** `turn`: one turn on the prompt; `plan`: a Planner turn whose plan goes to `out`; `execute`: run `planFile`; `review`: the Reviewer's verdict on `planFile`. */
  mode: 'turn' | 'plan' | 'execute' | 'review';
  /** With `execute`: what the Reviewer judges (the plan first, every step, or both). */
  review?: ReviewWhen;
  workspace?: string;
  role: RoleId;
  /** Whether --role was given (a resumed task otherwise keeps its own role). */
  roleGiven: boolean;
  model?: string;
  baseURL?: string;
  approve?: ApproveMode;
  answerDefault: boolean;
  json: boolean;
  prompt: string;
  /** --attach: files attached to the prompt besides its @mentions (as given, relative to the current folder). */
  attach: string[];
  out?: string;
  planFile?: string;
  resume?: string;
  historyDir?: string;
  noHistory: boolean;
  /** --mcp-config files, as given (absent when none). */
  mcpConfig?: string[];
  /** --allow-tool: MCP tools that run without asking (absent when none). */
  allowTools?: string[];
  /** --parallel N: how many independent plan steps run at once. */
  parallel?: number;
  /** --on-failure: what the other running steps do when one fails. */
  onFailure?: StepFailureChoice;
  /** --hooks files, as given (absent when none): the only hooks a CLI run runs. */
  hooks?: string[];
  /** --no-facts: no fact is sent or learned in this run. */
  noFacts?: boolean;
  /** --step N: run only this step of --plan, in a workspace of its own, and write its patch to `emitPatch`. */
  step?: number;
  /** --apply: step patches applied to the workspace first (the steps it depends on), as given. */
  applyPatches?: string[];
  /** --emit-patch: where the step's patch goes. */
  emitPatch?: string;
}

/** `tandem apply PATCH…`: step patches applied to the workspace, whole or nothing. */
export interface ApplyArgs {
  kind: 'apply';
  patches: string[];
  workspace?: string;
}

export interface HistoryArgs {
  kind: 'history';
  /** The sub-command and what follows it, unchecked: history.ts says what each needs. */
  words: string[];
  workspace?: string;
  historyDir?: string;
  out?: string;
  call?: string;
  json: boolean;
}

export interface FactsArgs {
  kind: 'facts';
  /** The sub-command and what follows it, unchecked: factsCommand.ts says what each needs. */
  words: string[];
  workspace?: string;
  historyDir?: string;
  cite: string[];
  json: boolean;
  /** consolidate: keep the proposal (else it is only shown). */
  apply: boolean;
  /** add, clear: the user's facts for every workspace. */
  global: boolean;
  model?: string;
  baseURL?: string;
}

export type ParsedArgs =
  | RunArgs
  | HistoryArgs
  | ApplyArgs
  | FactsArgs
  | { kind: 'help'; command: CommandName }
  | { kind: 'error'; command: CommandName; message: string };

type Values = Partial<Record<OptionName, string | boolean | string[]>>;

const COMMAND_NAMES: readonly CommandName[] = ['run', 'plan', 'review', 'history', 'facts', 'apply'];

/** parseArgs' own errors, said the way the rest of the CLI says them. */
function usageError(e: unknown): string {
  const err = e as { code?: string; message?: string };
  const flag = /'(--?[^'\s=<]+)/.exec(err.message ?? '')?.[1];
  const def = flag?.startsWith('--') ? (OPTIONS as Record<string, OptionDef>)[flag.slice(2)] : undefined;
  if (err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && flag) return `unknown option ${flag}`;
  if (err.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && flag) {
    if (/does not take an argument/.test(err.message ?? '')) return `${flag} takes no value`;
    const ambiguous = /ambiguous/.test(err.message ?? '') ? ` (a value starting with "-" is written ${flag}=-…)` : '';
    return `${flag} ${def?.missing ?? 'needs a value'}${ambiguous}`;
  }
  return err.message ?? String(e);
}

function parse(command: CommandName, args: string[], ctx: CliContext): { values: Values; positionals: string[] } | { error: string } {
  // Every string option is collected as a list, so "given twice" can be told from "given once".
  const options = Object.fromEntries(
    optionsOf(command).map(([name, o]) => [name, { type: o.type, ...(o.short ? { short: o.short } : {}), ...(o.type === 'string' ? { multiple: true } : {}) }]),
  );
  let parsed;
  try {
    parsed = parseArgv({ args, options, strict: true, allowPositionals: true });
  } catch (e) {
    return { error: usageError(e) };
  }
  const raw = parsed.values as Record<string, string[] | boolean | undefined>;
  const values: Values = {};
  for (const [name, o] of optionsOf(command)) {
    const v = raw[name];
    if (v === undefined || typeof v === 'boolean') {
      if (v !== undefined) values[name] = v;
      continue;
    }
    if (o.once && v.length > 1) return { error: `--${name} given twice` };
    for (const one of v) {
      if (one === '') return { error: `--${name} ${o.missing ?? 'needs a value'}` };
      const problem = o.check?.(one, ctx);
      if (problem) return { error: problem };
    }
    values[name] = o.multiple ? v : v[v.length - 1];
  }
  return { values, positionals: parsed.positionals };
}

const str = (v: Values[OptionName]): string | undefined => (typeof v === 'string' ? v : undefined);
const list = (v: Values[OptionName]): string[] => (Array.isArray(v) ? v : typeof v === 'string' ? [v] : []);

/** Where help is asked for: `-h`/`--help` before a `--`, or `tandem help`. */
function wantsHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  const options = end === -1 ? argv : argv.slice(0, end);
  return argv[0] === 'help' || options.includes('-h') || options.includes('--help');
}

/** `roles`: the roles `--role` may name (the product's; a test may pass its own). */
export function parseArgs(argv: readonly string[], roles: RoleRegistry<RoleInfo> = PRODUCT_ROLE_INFO): ParsedArgs {
  const [command, ...rest] = argv;
  const known = COMMAND_NAMES.find((c) => c === command);
  if (wantsHelp(argv)) return { kind: 'help', command: known === 'history' || known === 'facts' ? known : 'run' };
  if (command === undefined) return { kind: 'error', command: 'run', message: 'missing command' };
  if (!known) return { kind: 'error', command: 'run', message: `unknown command "${command}" (expected ${[...COMMAND_NAMES, 'eval'].join(', ')})` };
  const parsed = parse(known, rest, { roles });
  if ('error' in parsed) return { kind: 'error', command: known, message: parsed.error };
  const { values, positionals } = parsed;
  if (known === 'history') {
    return {
      kind: 'history',
      words: positionals,
      workspace: str(values.workspace),
      historyDir: str(values['history-dir']),
      out: str(values.out),
      call: str(values.call),
      json: values.json === true,
    };
  }
  if (known === 'apply') {
    if (positionals.length === 0) return { kind: 'error', command: known, message: 'tandem apply needs at least one patch file' };
    return { kind: 'apply', patches: positionals, workspace: str(values.workspace) };
  }
  if (known === 'facts') {
    return {
      kind: 'facts',
      words: positionals,
      workspace: str(values.workspace),
      historyDir: str(values['history-dir']),
      cite: list(values.cite),
      json: values.json === true,
      apply: values.apply === true,
      global: values.global === true,
      ...(str(values.model) ? { model: str(values.model) } : {}),
      ...(str(values['base-url']) ? { baseURL: str(values['base-url']) } : {}),
    };
  }
  const run = runArgs(known, values, positionals, roles);
  return typeof run === 'string' ? { kind: 'error', command: known, message: run } : run;
}

/** `run` and `plan`: the flags that go together, the role each mode needs. Returns the message on bad usage. */
function runArgs(command: 'run' | 'plan' | 'review', values: Values, positionals: string[], roles: RoleRegistry<RoleInfo>): RunArgs | string {
  const given = list(values.role);
  const resume = str(values.resume);
  const noHistory = values['no-history'] === true;
  if (resume && noHistory) return '--resume and --no-history cannot be combined';
  let mode: RunArgs['mode'] = 'turn';
  let role: RoleId = given.at(-1) ?? roles.initial.id;
  const planFile = str(values.plan);
  const out = str(values.out);
  // Every --role counts, not the last: `plan --role planner --role actor` must not run the Actor.
  if (command === 'plan') {
    if (!out) return 'tandem plan needs --out FILE.json (where the validated plan is written)';
    const planner = roles.planner;
    if (!planner) return 'tandem plan needs a role that plans; none is registered';
    const other = given.find((r) => r !== planner.id);
    if (other !== undefined) return `tandem plan runs the ${planner.label}; --role ${other} is not allowed`;
    mode = 'plan';
    role = planner.id;
  } else if (command === 'review') {
    const reviewer = roles.reviewer;
    if (!reviewer) return 'tandem review needs a role that reviews; none is registered';
    if (planFile === undefined) return 'tandem review needs --plan FILE.json (the plan to judge)';
    mode = 'review';
    role = reviewer.id;
  } else if (planFile !== undefined) {
    const executor = roles.executor;
    if (!executor) return '--plan needs a role that executes plans; none is registered';
    if (given.some((r) => r !== executor.id)) return `--plan executes a plan: it needs --role ${executor.id}`;
    mode = 'execute';
    role = executor.id;
  }
  const review = str(values.review) as ReviewWhen | undefined;
  if (review && mode !== 'execute') return '--review goes with --plan FILE.json (it judges that plan and its steps)';
  const parallel = str(values.parallel);
  if (parallel !== undefined && mode !== 'execute') return '--parallel goes with --plan FILE.json (it runs that plan\'s independent steps at once)';
  const onFailure = str(values['on-failure']) as StepFailureChoice | undefined;
  if (onFailure !== undefined && mode !== 'execute') return '--on-failure goes with --plan FILE.json (what its other running steps do when one fails)';
  const step = str(values.step);
  const applyPatches = list(values.apply);
  const emitPatch = str(values['emit-patch']);
  if (step !== undefined && mode !== 'execute') return '--step goes with --plan FILE.json (it runs that plan\'s step N)';
  if ((applyPatches.length || emitPatch !== undefined) && step === undefined) return `--${applyPatches.length ? 'apply' : 'emit-patch'} goes with --step N (use tandem apply PATCH… to apply patches)`;
  if (step !== undefined && emitPatch === undefined) return '--step needs --emit-patch OUT (where the step\'s patch is written)';
  if (step !== undefined && resume) return '--step runs one step as a job of its own; it cannot --resume a task';
  // The plan is the brief of an execution (or what is reviewed), so no prompt is needed; a placeholder names it.
  const prompt = mode === 'execute' ? `(execute the plan in ${planFile})` : mode === 'review' ? `(review the plan in ${planFile})` : positionals.join(' ').trim();
  if (!prompt) return 'missing the prompt';
  if ((mode === 'execute' || mode === 'review') && positionals.length) return `--plan ${mode === 'review' ? 'is the plan reviewed' : 'executes the plan file'}; it takes no prompt (got "${positionals.join(' ')}")`;
  return {
    kind: 'run',
    mode,
    workspace: str(values.workspace),
    role,
    roleGiven: given.length > 0,
    model: str(values.model),
    baseURL: str(values['base-url']),
    approve: str(values.approve) as ApproveMode | undefined,
    answerDefault: values.answer === 'default',
    json: values.json === true,
    prompt,
    attach: list(values.attach),
    ...(out ? { out } : {}),
    ...(planFile !== undefined ? { planFile } : {}),
    ...(review ? { review } : {}),
    ...(resume ? { resume } : {}),
    ...(str(values['history-dir']) ? { historyDir: str(values['history-dir']) } : {}),
    noHistory,
    ...(list(values['mcp-config']).length ? { mcpConfig: list(values['mcp-config']) } : {}),
    ...(list(values['allow-tool']).length ? { allowTools: list(values['allow-tool']) } : {}),
    ...(parallel !== undefined ? { parallel: Number(parallel) } : {}),
    ...(onFailure !== undefined ? { onFailure } : {}),
    ...(list(values.hooks).length ? { hooks: list(values.hooks) } : {}),
    ...(values['no-facts'] === true ? { noFacts: true } : {}),
    ...(step !== undefined ? { step: Number(step), emitPatch: emitPatch!, ...(applyPatches.length ? { applyPatches } : {}) } : {}),
  };
}
