/**
 * Every environment variable the CLI reads, read here and nowhere else in src/cli: the agent's
 * settings (with the flags that override them) and the log level. ENVIRONMENT documents them; the
 * usage text lists it. A malformed number or price table is ignored (the default stays in force)
 * rather than failing the run.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import { apiKeyFromEnv } from '../core/secrets/apiKeyEnv';
import { approvalFromFlag } from '../core/policy/approvalPolicy';
import { defaultSettings, DEFAULT_EXPLORERS, DEFAULT_LIMITS, type AgentSettings } from '../core/settings/settings';
import { PRODUCT_ROLE_INFO, type RoleInfo, type RoleRegistry } from '../protocol';
import type { ApproveMode } from './commands';
import { DEFAULT_INSTRUCTION_MAX_TOKENS, INSTRUCTION_SETTINGS, INSTRUCTION_SOURCES, type KnowledgeSettings } from '../core/knowledge/instructionSources';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'off';
const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error', 'off'];

/** For the usage text: name(s), and what it sets. `task` entries are also listed by `tandem history --help`. */
export const ENVIRONMENT: readonly { names: string; help: string; task?: boolean }[] = [
  { names: 'TANDEM_API_KEY, OPENAI_API_KEY', help: 'API key (never printed)' },
  { names: 'TANDEM_BASE_URL, OPENAI_BASE_URL', help: 'endpoint (--base-url wins)' },
  { names: 'TANDEM_MODEL', help: 'default model' },
  { names: 'TANDEM_MAX_TOOL_CALLS', help: `tool calls per turn before asking (default ${DEFAULT_LIMITS.maxToolCallsPerTurn})` },
  { names: 'TANDEM_IDLE_TIMEOUT_MS', help: `abandon a request making no progress this long (default ${DEFAULT_LIMITS.requestIdleTimeoutMs})` },
  { names: 'TANDEM_FIRST_OUTPUT_TIMEOUT_MS', help: `wait this long for the first token (default ${DEFAULT_LIMITS.firstOutputTimeoutMs})` },
  { names: 'TANDEM_REQUEST_DEADLINE_MS', help: `overall limit per request, retries included (default ${DEFAULT_LIMITS.requestDeadlineMs})` },
  { names: 'TANDEM_MAX_RETRIES', help: `retries for 429/5xx/connection errors, waits capped at 60 s; a timeout is retried once (default ${DEFAULT_LIMITS.maxRetries})` },
  { names: 'TANDEM_BUDGET_USD', help: 'per-task budget in USD: warn at 80%, stop and ask at 100% (0 = off)', task: true },
  { names: 'TANDEM_CONTEXT_WINDOW', help: "the model's context window in tokens (default: from a table)", task: true },
  { names: 'TANDEM_SUMMARY_MODEL', help: 'a cheaper model for condensing old turns', task: true },
  { names: 'TANDEM_STEP_BUDGET_USD', help: 'per plan step budget in USD: the step stops and fails there, its changes kept (0 = off)', task: true },
  { names: 'TANDEM_REVIEW_STEPS', help: 'off|on_failure|every_step: when the Reviewer judges an executed step (default off)', task: true },
  { names: 'TANDEM_FALLBACK_MODELS', help: 'role=m1,m2;role=m3: models tried when a role\'s answers stay invalid after repairs', task: true },
  { names: 'TANDEM_PRICES', help: 'JSON {"model": {"input": USD/1M, "output": USD/1M}} overriding the price table', task: true },
  { names: 'TANDEM_DATA_DIR', help: 'where tasks are saved (else $XDG_DATA_HOME/tandem, ~/.local/share/tandem)', task: true },
  { names: 'TANDEM_LOG', help: `${LOG_LEVELS.join('|')} (stderr, default warn)` },
  { names: 'TANDEM_SANDBOX_NETWORK=1', help: 'sandboxed commands get the network (default: off; asked per command)' },
  { names: 'TANDEM_SANDBOX_SECRETS, _ALLOW', help: 'file patterns hidden from commands (default .env*,*.pem,*.key), and exceptions' },
  { names: 'TANDEM_BWRAP', help: 'the bubblewrap binary, or off (then every command asks)' },
  { names: 'TANDEM_INSTRUCTIONS_OFF', help: `project instruction sources not to read: all, or some of ${INSTRUCTION_SETTINGS.join(',')} (or their file names)` },
  { names: 'TANDEM_INSTRUCTIONS_MAX_TOKENS', help: `token budget for project instructions (default ${DEFAULT_INSTRUCTION_MAX_TOKENS})` },
  { names: 'TANDEM_SKILLS_DIR', help: 'your own skills folder (default ~/.tandem/skills); TANDEM_SKILLS=off turns skills off' },
  { names: 'TANDEM_EXPLORERS_MAX', help: `read-only explorers the Planner may run at once (default ${DEFAULT_EXPLORERS.max}); TANDEM_EXPLORERS=off turns them off`, task: true },
  { names: 'TANDEM_FACTS=off', help: 'send and learn no facts (also --no-facts); TANDEM_FACTS_MAX_AGE_DAYS (default 60), TANDEM_FACTS_MAX_TOKENS (default 300)', task: true },
  { names: 'TANDEM_READONLY_SHELL=1', help: 'read-only roles (the Planner) may run commands in a read-only sandbox' },
];

/** The flags that override the environment. */
export interface SettingFlags {
  model?: string;
  baseURL?: string;
  approve?: ApproveMode;
}

function num(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const v = env[name];
  if (v === undefined || v === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

const int = (env: NodeJS.ProcessEnv, name: string, fallback: number) => {
  const n = num(env, name);
  return n === undefined ? fallback : Math.floor(n);
};

function prices(env: NodeJS.ProcessEnv): AgentSettings['prices'] {
  if (!env.TANDEM_PRICES) return undefined;
  try {
    const p = JSON.parse(env.TANDEM_PRICES) as Record<string, { input: number; output: number }>;
    const ok = Object.values(p).every((v) => v && typeof v.input === 'number' && typeof v.output === 'number');
    return ok ? p : undefined;
  } catch {
    return undefined;
  }
}

/** `reviewer=model-a,model-b;planner=model-c`: per role, the models tried after its own (unknown roles are ignored). */
function fallbackModels(text: string, roles: RoleRegistry<RoleInfo>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const part of text.split(';')) {
    const [role, models] = part.split('=', 2).map((x) => x.trim());
    if (role && models && roles.has(role)) out[role] = models.split(',').map((m) => m.trim()).filter(Boolean).slice(0, 5);
  }
  return out;
}

export function settingsFromEnv(
  env: NodeJS.ProcessEnv,
  flags: SettingFlags,
  isTty: boolean,
  roles: RoleRegistry<RoleInfo> = PRODUCT_ROLE_INFO,
): { settings: AgentSettings; logLevel: LogLevel } {
  const model = flags.model ?? env.TANDEM_MODEL ?? 'gpt-4o-mini';
  const settings = defaultSettings({
    baseURL: flags.baseURL ?? env.TANDEM_BASE_URL ?? env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1',
    apiKey: apiKeyFromEnv(env),
    // --model/$TANDEM_MODEL is every role's model (a role without its own uses the first one's).
    models: { [roles.initial.id]: model },
    approval: approvalFromFlag(flags.approve, isTty),
    limits: {
      ...DEFAULT_LIMITS,
      maxToolCallsPerTurn: Math.max(1, int(env, 'TANDEM_MAX_TOOL_CALLS', DEFAULT_LIMITS.maxToolCallsPerTurn)),
      requestIdleTimeoutMs: Math.max(1, int(env, 'TANDEM_IDLE_TIMEOUT_MS', DEFAULT_LIMITS.requestIdleTimeoutMs)),
      firstOutputTimeoutMs: Math.max(1, int(env, 'TANDEM_FIRST_OUTPUT_TIMEOUT_MS', DEFAULT_LIMITS.firstOutputTimeoutMs)),
      requestDeadlineMs: Math.max(1, int(env, 'TANDEM_REQUEST_DEADLINE_MS', DEFAULT_LIMITS.requestDeadlineMs)),
      maxRetries: int(env, 'TANDEM_MAX_RETRIES', DEFAULT_LIMITS.maxRetries),
    },
  });
  const budget = num(env, 'TANDEM_BUDGET_USD');
  if (budget !== undefined) settings.taskBudgetUsd = budget;
  const window = num(env, 'TANDEM_CONTEXT_WINDOW');
  if (window) settings.contextWindow = Math.floor(window);
  if (env.TANDEM_SUMMARY_MODEL) settings.summaryModel = env.TANDEM_SUMMARY_MODEL;
  const stepBudget = num(env, 'TANDEM_STEP_BUDGET_USD');
  if (stepBudget !== undefined) settings.stepBudgetUsd = stepBudget;
  if (env.TANDEM_REVIEW_STEPS === 'off' || env.TANDEM_REVIEW_STEPS === 'on_failure' || env.TANDEM_REVIEW_STEPS === 'every_step') settings.reviewSteps = env.TANDEM_REVIEW_STEPS;
  if (env.TANDEM_FALLBACK_MODELS) settings.fallbackModels = fallbackModels(env.TANDEM_FALLBACK_MODELS, roles);
  const table = prices(env);
  if (table) settings.prices = { ...(settings.prices ?? {}), ...table };
  settings.knowledge = knowledgeFromEnv(env);
  // The Planner's explorers: TANDEM_EXPLORERS=off turns them off, TANDEM_EXPLORERS_MAX caps how many run at once.
  settings.explorers = { enabled: env.TANDEM_EXPLORERS !== 'off', max: Math.max(1, int(env, 'TANDEM_EXPLORERS_MAX', DEFAULT_EXPLORERS.max)) };
  const level = env.TANDEM_LOG as LogLevel | undefined;
  return { settings, logLevel: level && LOG_LEVELS.includes(level) ? level : 'warn' };
}

/** `TANDEM_INSTRUCTIONS_OFF=claudeMd,.cursorrules` (setting keys or file names, or `all`), `TANDEM_INSTRUCTIONS_MAX_TOKENS`. */
function knowledgeFromEnv(env: NodeJS.ProcessEnv): KnowledgeSettings {
  const off = new Set((env.TANDEM_INSTRUCTIONS_OFF ?? '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean));
  const instructions: KnowledgeSettings['instructions'] = {};
  for (const k of INSTRUCTION_SETTINGS) {
    const file = INSTRUCTION_SOURCES.find((s) => s.setting === k)?.path.toLowerCase();
    if (off.has('all') || off.has(k.toLowerCase()) || (file && off.has(file))) instructions[k] = false;
  }
  const home = env.HOME || os.homedir();
  const dir = env.TANDEM_SKILLS_DIR?.trim();
  return {
    instructions,
    instructionMaxTokens: int(env, 'TANDEM_INSTRUCTIONS_MAX_TOKENS', DEFAULT_INSTRUCTION_MAX_TOKENS),
    skills: env.TANDEM_SKILLS !== 'off',
    userSkillsDir: dir ? path.resolve(dir.startsWith('~/') ? path.join(home, dir.slice(2)) : dir) : path.join(home, '.tandem', 'skills'),
  };
}
