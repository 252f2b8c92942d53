import { ROLE_TABLE, type RoleId } from '../../protocol';
import { defaultKnowledgeSettings, type KnowledgeSettings } from '../knowledge/instructionSources';
import type { ApprovalSettings } from '../policy/approvalPolicy';

/** What the other running steps do when one fails (see AgentSettings.onStepFailure). */
export const STEP_FAILURE_CHOICES = ['finish', 'stop'] as const;
export type StepFailureChoice = (typeof STEP_FAILURE_CHOICES)[number];

/** Everything the agent reads from settings (VS Code `tandem.*`) or CLI flags. One shape for both hosts. */
export interface AgentSettings {
  baseURL: string;
  apiKey: string;
  /**
   * Model per role id; a role may have its own (e.g. a stronger planner). A role with none uses the
   * first one given (see `modelFor`), so a registry with a role of its own needs no new setting.
   */
  models: Partial<Record<RoleId, string>>;
  /** Cheaper model for condensing old turns; falls back to the role's model. */
  summaryModel?: string;
  maxTokens: number;
  /** 'auto': try json_schema and fall back on a 400 that says it is unsupported. */
  structuredOutputs: 'auto' | 'on' | 'off';
  approval: ApprovalSettings;
  limits: LimitSettings;
  /** Commands that may run without asking (every segment of a chained command must match). */
  commandAllowList: string[];
  /** Context window override (tokens); otherwise looked up by model name. */
  contextWindow?: number;
  /** Per-task budget in USD; 0 = off. */
  taskBudgetUsd: number;
  /** USD per million tokens, overriding the built-in table. */
  prices?: Record<string, { input: number; output: number }>;
  /** The Reviewer judges every plan version before it is executed (Execute reviews first; a verdict other than ok stops there). */
  reviewPlans?: boolean;
  /** When the Reviewer judges an executed step: never, when it did not end done, or after every step. */
  reviewSteps?: ReviewStepsSetting;
  /** Per plan step budget in USD (0 or unset: none): a step that reaches it is stopped and fails; its changes stay (revertible). */
  stepBudgetUsd?: number;
  /** How many independent plan steps may run at once (`tandem.parallelSteps`, CLI `--parallel N`; 1: one at a time). Default 2. */
  parallelSteps?: number;
  /**
   * When a step run beside others fails: the others `finish` their current step (default) or are
   * `stop`ped (`tandem.parallelStepsOnFailure`, CLI `--on-failure`). Either way no new step starts.
   */
  onStepFailure?: StepFailureChoice;
  /** Per role id: models tried in order when the role's model gave no valid plan or verdict after its repairs. */
  fallbackModels?: Partial<Record<RoleId, string[]>>;
  /** MCP tools (`server__tool`) that run without asking (`tandem.mcp.allowedTools`, `--allow-tool`). */
  mcpAllowedTools?: string[];
  /** Project instructions and skills: which sources are read, and their budget (default: all, 4,000 tokens). */
  knowledge?: KnowledgeSettings;
  /** The Planner's read-only explorers (`explore`): offered or not, and how many run at once. Unset: DEFAULT_EXPLORERS. */
  explorers?: ExplorerSettings;
}

export interface ExplorerSettings {
  enabled: boolean;
  /** At most this many explorers run at once; more wait for a free slot. */
  max: number;
}

export const DEFAULT_EXPLORERS: ExplorerSettings = { enabled: true, max: 3 };

export const REVIEW_STEPS = ['off', 'on_failure', 'every_step'] as const;
export type ReviewStepsSetting = (typeof REVIEW_STEPS)[number];

export interface LimitSettings {
  maxToolCallsPerTurn: number;
  maxConsecutiveToolErrors: number;
  /** No progress (content, reasoning or tool-call bytes) for this long abandons a request. */
  requestIdleTimeoutMs: number;
  /** The first token may take this long (prompt evaluation on a CPU server takes minutes for a large prompt). */
  firstOutputTimeoutMs: number;
  /** Overall limit per request, retries included: a drip-feed of tiny deltas ends too. */
  requestDeadlineMs: number;
  commandTimeoutMs: number;
  maxRetries: number;
  planRepairTries: number;
  maxToolResultChars: number;
}

export const DEFAULT_LIMITS: LimitSettings = {
  maxToolCallsPerTurn: 25,
  maxConsecutiveToolErrors: 3,
  requestIdleTimeoutMs: 60_000,
  firstOutputTimeoutMs: 300_000,
  requestDeadlineMs: 600_000,
  commandTimeoutMs: 120_000,
  maxRetries: 2,
  planRepairTries: 2,
  maxToolResultChars: 20_000,
};

export function defaultSettings(overrides: Partial<AgentSettings> = {}): AgentSettings {
  return {
    baseURL: 'https://api.openai.com/v1',
    apiKey: '',
    models: Object.fromEntries(ROLE_TABLE.map((r) => [r.id, 'gpt-4o-mini'])),
    maxTokens: 4096,
    structuredOutputs: 'auto',
    approval: { mode: 'ask', autoApprove: { edit: false, create: false, delete: false, command: false }, planScope: false },
    limits: { ...DEFAULT_LIMITS },
    commandAllowList: [],
    taskBudgetUsd: 0,
    stepBudgetUsd: 0,
    parallelSteps: 2,
    onStepFailure: 'finish',
    reviewPlans: false,
    reviewSteps: 'off',
    fallbackModels: {},
    mcpAllowedTools: [],
    knowledge: defaultKnowledgeSettings(),
    explorers: { ...DEFAULT_EXPLORERS },
    ...overrides,
  };
}

/** The model a role's requests use: its own, else the first role's that has one. */
export function modelFor(settings: Pick<AgentSettings, 'models'>, role: RoleId): string {
  return settings.models[role] || Object.values(settings.models).find((m) => !!m) || '';
}
