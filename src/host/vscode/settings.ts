import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { PRODUCT_ROLE_INFO, type RoleId, type RoleInfo, type RoleRegistry } from '../../protocol';
import { DEFAULT_EXPLORERS, DEFAULT_LIMITS, REVIEW_STEPS, defaultSettings, type AgentSettings, type LimitSettings, type ReviewStepsSetting } from '../../core/settings/settings';
import { DEFAULT_INSTRUCTION_MAX_TOKENS, INSTRUCTION_SETTINGS, type KnowledgeSettings } from '../../core/knowledge/instructionSources';

/** The `tandem.*` keys this reads, in one place, so the package.json contribution and this agree. */
export const SETTING = {
  baseUrl: 'baseUrl',
  summaryModel: 'model.summary',
  maxTokens: 'maxTokens',
  structuredOutputs: 'structuredOutputs',
  autoApproveEdit: 'autoApprove.edit',
  autoApproveCreate: 'autoApprove.create',
  autoApproveDelete: 'autoApprove.delete',
  autoApproveCommand: 'autoApprove.command',
  autoApprovePlanScope: 'autoApprove.planScope',
  commandAllowList: 'commandAllowList',
  contextWindow: 'contextWindow',
  taskBudgetUsd: 'taskBudgetUsd',
  stepBudgetUsd: 'stepBudgetUsd',
  parallelSteps: 'parallelSteps',
  parallelStepsOnFailure: 'parallelStepsOnFailure',
  reviewPlans: 'review.plans',
  reviewSteps: 'review.steps',
  fallbackModels: 'fallbackModels',
  prices: 'prices',
  limits: 'limits',
  instructions: 'instructions',
  skillsEnabled: 'skills.enabled',
  skillsUserFolder: 'skills.userFolder',
  mcpAllowedTools: 'mcp.allowedTools',
  explorersEnabled: 'explorers.enabled',
  explorersMax: 'explorers.max',
} as const;

const LIMIT_KEYS = Object.keys(DEFAULT_LIMITS) as (keyof LimitSettings)[];

/** Reads `tandem.*` into the core's AgentSettings; anything missing or malformed takes the default. */
export function readAgentSettings(
  apiKey: string,
  config: vscode.WorkspaceConfiguration = vscode.workspace.getConfiguration('tandem'),
  roles: RoleRegistry<RoleInfo> = PRODUCT_ROLE_INFO,
): AgentSettings {
  const d = defaultSettings();
  const str = (key: string, fallback: string) => {
    const v = config.get<unknown>(key);
    return typeof v === 'string' && v.trim() ? v.trim() : fallback;
  };
  const num = (key: string, fallback: number, min = 0) => {
    const v = config.get<unknown>(key);
    return typeof v === 'number' && Number.isFinite(v) && v >= min ? v : fallback;
  };
  const bool = (key: string, fallback: boolean) => {
    const v = config.get<unknown>(key);
    return typeof v === 'boolean' ? v : fallback;
  };

  const limits: LimitSettings = { ...DEFAULT_LIMITS };
  // Both shapes work: an object `tandem.limits: {…}` and dotted keys `tandem.limits.maxToolCallsPerTurn`.
  const limitObj = config.get<unknown>(SETTING.limits);
  for (const k of LIMIT_KEYS) {
    const fromObj = limitObj && typeof limitObj === 'object' ? (limitObj as Record<string, unknown>)[k] : undefined;
    if (typeof fromObj === 'number' && Number.isFinite(fromObj) && fromObj >= 0) limits[k] = fromObj;
    limits[k] = num(`${SETTING.limits}.${k}`, limits[k]);
  }

  // Each role's own model (`tandem.model.<role>`); a role without one uses the first role's.
  const models: Record<RoleId, string> = {};
  let first: string | undefined;
  for (const r of roles.list) {
    models[r.id] = str(r.modelSetting, first ?? d.models[r.id] ?? 'gpt-4o-mini');
    first ??= models[r.id];
  }
  const structured = config.get<unknown>(SETTING.structuredOutputs);
  const allow = config.get<unknown>(SETTING.commandAllowList);
  const prices = config.get<unknown>(SETTING.prices);
  const contextWindow = num(SETTING.contextWindow, 0, 0);
  const summary = str(SETTING.summaryModel, '');

  return {
    ...d,
    baseURL: str(SETTING.baseUrl, d.baseURL).replace(/\/+$/, ''),
    apiKey,
    models,
    summaryModel: summary || undefined,
    maxTokens: num(SETTING.maxTokens, d.maxTokens, 1),
    structuredOutputs: structured === 'on' || structured === 'off' || structured === 'auto' ? structured : d.structuredOutputs,
    approval: {
      mode: 'ask',
      autoApprove: {
        edit: bool(SETTING.autoApproveEdit, false),
        create: bool(SETTING.autoApproveCreate, false),
        delete: bool(SETTING.autoApproveDelete, false),
        command: bool(SETTING.autoApproveCommand, false),
      },
      planScope: bool(SETTING.autoApprovePlanScope, false),
    },
    limits,
    commandAllowList: Array.isArray(allow) ? allow.filter((s): s is string => typeof s === 'string' && s.trim() !== '') : [],
    contextWindow: contextWindow > 0 ? contextWindow : undefined,
    taskBudgetUsd: num(SETTING.taskBudgetUsd, 0),
    stepBudgetUsd: num(SETTING.stepBudgetUsd, 0),
    parallelSteps: Math.max(1, Math.floor(num(SETTING.parallelSteps, 2))),
    onStepFailure: config.get<unknown>(SETTING.parallelStepsOnFailure) === 'stop' ? 'stop' : 'finish',
    reviewPlans: bool(SETTING.reviewPlans, false),
    reviewSteps: REVIEW_STEPS.includes(config.get<unknown>(SETTING.reviewSteps) as ReviewStepsSetting) ? config.get<ReviewStepsSetting>(SETTING.reviewSteps)! : 'off',
    fallbackModels: fallbackModels(config.get<unknown>(SETTING.fallbackModels), roles),
    prices: prices && typeof prices === 'object' ? (prices as AgentSettings['prices']) : undefined,
    mcpAllowedTools: stringList(config.get<unknown>(SETTING.mcpAllowedTools)),
    explorers: { enabled: bool(SETTING.explorersEnabled, DEFAULT_EXPLORERS.enabled), max: Math.floor(num(SETTING.explorersMax, DEFAULT_EXPLORERS.max, 1)) },
    knowledge: { ...readKnowledgeSettings(bool, num), skills: bool(SETTING.skillsEnabled, true), userSkillsDir: userSkillsDir(str(SETTING.skillsUserFolder, '')) },
  };
}

/** `tandem.fallbackModels`: `{ "<role>": ["model", …] }`; anything else is ignored. */
function fallbackModels(v: unknown, roles: RoleRegistry<RoleInfo>): AgentSettings['fallbackModels'] {
  if (!v || typeof v !== 'object') return {};
  const out: Record<string, string[]> = {};
  for (const [role, list] of Object.entries(v as Record<string, unknown>)) {
    if (!roles.has(role) || !Array.isArray(list)) continue;
    out[role] = list.filter((m): m is string => typeof m === 'string' && m.trim() !== '').map((m) => m.trim()).slice(0, 5);
  }
  return out;
}

function stringList(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string' && s.trim() !== '') : [];
}

/** The user's skills folder: the setting (`~` expanded), else ~/.tandem/skills. */
export function userSkillsDir(setting: string): string {
  if (!setting) return path.join(os.homedir(), '.tandem', 'skills');
  return setting === '~' || setting.startsWith('~/') ? path.join(os.homedir(), setting.slice(1)) : path.resolve(setting);
}

/** `tandem.instructions.<source>` (each on unless turned off) and the instructions budget. */
function readKnowledgeSettings(bool: (key: string, fallback: boolean) => boolean, num: (key: string, fallback: number) => number): KnowledgeSettings {
  const instructions: KnowledgeSettings['instructions'] = {};
  for (const k of INSTRUCTION_SETTINGS) instructions[k] = bool(`${SETTING.instructions}.${k}`, true);
  return { instructions, instructionMaxTokens: Math.floor(num(`${SETTING.instructions}.maxTokens`, DEFAULT_INSTRUCTION_MAX_TOKENS)) };
}

/** Whether the user ever chose an endpoint (any scope), as opposed to the built-in default. */
export function hasExplicitBaseUrl(config: vscode.WorkspaceConfiguration = vscode.workspace.getConfiguration('tandem')): boolean {
  const i = config.inspect<string>(SETTING.baseUrl);
  if ([i?.globalValue, i?.workspaceValue, i?.workspaceFolderValue].some((v) => typeof v === 'string' && v.trim() !== '')) return true;
  // A machine-scoped setting in a remote window (code-server, SSH) is applied from the user's
  // settings without showing up as globalValue in inspect(): the value in force tells.
  const v = config.get<string>(SETTING.baseUrl);
  return typeof v === 'string' && v.trim() !== '' && v !== i?.defaultValue;
}

/** Writes the endpoint and per-role models chosen in the setup card (user settings: they follow the user, not the repo). */
export async function saveEndpointSettings(
  baseUrl: string,
  models: Partial<Record<RoleId, string>>,
  target = vscode.ConfigurationTarget.Global,
  roles: RoleRegistry<RoleInfo> = PRODUCT_ROLE_INFO,
): Promise<void> {
  const config = vscode.workspace.getConfiguration('tandem');
  await config.update(SETTING.baseUrl, baseUrl.trim().replace(/\/+$/, ''), target);
  // Only the registry's roles: the webview is untrusted and must not pick arbitrary setting keys.
  for (const r of roles.list) {
    const model = models[r.id]?.trim();
    if (model) await config.update(r.modelSetting, model, target);
  }
}

/**
 * Calls `onChange` with fresh settings whenever `tandem.*` or the key changes: no reload needed.
 * The key is read from SecretStorage each time, so it is never cached in a settings object longer than needed.
 */
export function watchAgentSettings(getKey: () => Promise<string>, onKeyChange: vscode.Event<void>, onChange: (s: AgentSettings) => void): vscode.Disposable {
  const fire = async () => onChange(readAgentSettings(await getKey()));
  return vscode.Disposable.from(
    vscode.workspace.onDidChangeConfiguration((e) => { if (e.affectsConfiguration('tandem')) void fire(); }),
    onKeyChange(() => void fire()),
  );
}
