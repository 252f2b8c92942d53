/**
 * The `explore` tool's child agents. Each explorer is one turn of its own: a fresh conversation
 * holding only the question, a role cut down from its parent's (read permission at most, no shell,
 * no plans — a child never has more than its parent), only the registry's read-only working tools
 * (no conversation tools: no explore, so no grandchildren; no questions, as nobody answers a child), and an approver that
 * refuses whatever would have to ask a person. The sandbox and ignore rules hold because its tools
 * are the parent's own, on the parent's host and paths. Its cards stay out of the chat; each of
 * its requests is counted in the parent's meter under the parent's role (the usage card, the
 * turn and task totals, the plan's per-role cost and the budget see it like any other request).
 */
import { roleMay, type RoleId, type TurnOutcome } from '../../protocol';
import { EventStream } from '../events';
import type { LlmClient } from '../llm';
import type { Approver, HostPorts } from '../ports/ports';
import type { RoleDef } from '../roles/roles';
import { explorerPrompt } from '../roles/explorerPrompt';
import { DEFAULT_EXPLORERS, type AgentSettings } from '../settings/settings';
import { UsageMeter } from '../cost/usageMeter';
import type { ExplorerPort } from '../tools/explorerPort';
import { ReadTracker } from '../tools/readTracker';
import { ToolRegistry } from '../tools/toolRegistry';
import type { WorkspacePaths } from '../workspace/workspacePaths';
import { Conversation } from '../context/conversation';
import type { PolicyInput } from '../policy/approvalPolicy';
import { emitUsage, runTurn } from './turnLoop';
import type { AgentHooks } from './turnHooks';
import type { DispatchEnv } from './dispatcher';

/** An explorer's own limits: a short look, with smaller results than its parent's, so its context stays small. */
const EXPLORER_TOOL_CALLS = 12;
const EXPLORER_RESULT_CHARS = 8_000;

export interface ExplorersDeps {
  /** The role that calls explore, as it is when the call runs. */
  parent(): RoleDef;
  settings(): AgentSettings;
  llm(): LlmClient;
  host: HostPorts;
  paths: WorkspacePaths;
  tools: ToolRegistry;
  policy(): PolicyInput;
  /** The parent's stream and meter: an explorer's requests are counted there. */
  events: EventStream;
  usage: UsageMeter;
  hooks?: AgentHooks;
  /** The user's hooks in force: an explorer's calls pass its PreToolUse/PostToolUse hooks like the parent's, and its end SubagentStop. */
  userHooks?(): DispatchEnv['userHooks'];
}

/** Nobody answers an explorer: what would need a person is refused, with a reason its model reads. */
const REFUSING_APPROVER: Approver = {
  request: async () => ({ approved: false, reason: 'an explorer is read-only and may not ask for approval; tell the Planner what you would need instead' }),
};

/** The explorer's role: the parent's, with no more than read permission, no shell and no plans. */
export function explorerRole(parent: RoleDef): RoleDef {
  return {
    ...parent,
    label: `${parent.label}'s explorer`,
    permissions: parent.permissions.filter((p) => p === 'read'),
    shell: 'none',
    mayPlan: false,
    executesPlans: false,
    reviews: false,
    systemPrompt: () => explorerPrompt(parent.label),
  };
}

export class Explorers implements ExplorerPort {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly deps: ExplorersDeps) {}

  async explore(question: string, signal: AbortSignal): Promise<{ summary: string; ok: boolean; calls: readonly string[] }> {
    await this.slot(signal);
    try {
      return await this.run(question, signal);
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }

  /** Waits until fewer than the setting's maximum explorers run (Stop ends the wait). */
  private async slot(signal: AbortSignal): Promise<void> {
    while (this.running >= Math.max(1, this.deps.settings().explorers?.max ?? DEFAULT_EXPLORERS.max)) {
      if (signal.aborted) throw new Error('stopped');
      await new Promise<void>((resolve) => {
        this.waiting.push(resolve);
        signal.addEventListener('abort', () => resolve(), { once: true });
      });
    }
    this.running++;
  }

  private async run(question: string, signal: AbortSignal): Promise<{ summary: string; ok: boolean; calls: readonly string[] }> {
    const d = this.deps;
    const parent = d.parent();
    const role = explorerRole(parent);
    const parentRole: RoleId = parent.id;
    const calls: string[] = [];
    // The explorer's cards stay out of the chat; its calls are kept in words and its requests counted in the parent.
    const events = new EventStream((e) => {
      if (e.type !== 'card_added') return;
      const c = e.card;
      if (c.kind === 'tool_call') calls.push(c.summary);
      else if (c.kind === 'usage') {
        // 'explore' folds like a routine request in the chat; one that ended otherwise (cut off, failed) says how.
        const outcome = c.outcome === 'ok' || c.outcome === 'tool_calls' ? 'explore' : `explore: ${c.outcome}`;
        emitUsage(d.events, d.usage, { model: c.model, role: parentRole, tokensIn: c.tokens_in, tokensOut: c.tokens_out, latencyMs: c.latency_ms, outcome, ...(c.estimated ? { estimated: true } : {}) }, d.hooks?.onUsage);
      }
    }, 'x');
    const conversation = new Conversation();
    conversation.appendUser(question);
    // Only the registry's read-only working tools, and only those the cut-down role may call.
    const tools = new ToolRegistry([{ id: 'explorer', tools: () => d.tools.all().filter((t) => t.readOnly && !t.conversational && roleMay(role, t.permissions)) }]);
    const settings = d.settings();
    const limits = { ...settings.limits, maxToolCallsPerTurn: Math.min(EXPLORER_TOOL_CALLS, settings.limits.maxToolCallsPerTurn), maxToolResultChars: Math.min(EXPLORER_RESULT_CHARS, settings.limits.maxToolResultChars) };
    let outcome: TurnOutcome;
    const userHooks = d.userHooks?.();
    try {
      outcome = await runTurn({
        role: () => role,
        settings: () => ({ ...d.settings(), limits }),
        llm: d.llm,
        events,
        conversation,
        tools,
        catalog: () => ({ stepTools: [] }),
        usage: new UsageMeter(settings.prices),
        signal,
        setState: () => {},
        dispatchEnv: {
          host: { ...d.host, approver: REFUSING_APPROVER },
          paths: d.paths,
          reads: new ReadTracker(),
          limits,
          policy: d.policy,
          secret: () => d.settings().apiKey,
          askToContinue: async () => false,
          ...(userHooks ? { userHooks } : {}),
        },
        stopEvent: 'SubagentStop',
      });
    } catch (err) {
      outcome = signal.aborted ? 'stopped' : 'error';
      d.host.logger.warn(`explorer failed: ${err instanceof Error ? err.message : String(err)}`);
    }
    const last = conversation.last();
    const answer = last?.role === 'assistant' && typeof last.content === 'string' ? last.content.trim() : '';
    if (outcome === 'done' && answer) return { summary: answer, ok: true, calls };
    const why = outcome === 'stopped' ? 'it was stopped' : outcome === 'limit' ? `it reached its limit of ${limits.maxToolCallsPerTurn} tool calls` : 'its request failed';
    return { summary: `The explorer did not finish (${why}).${answer ? ` Its last words: ${answer}` : ''} Read the files yourself or ask a narrower question.`, ok: false, calls };
  }
}
