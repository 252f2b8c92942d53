/**
 * One turn: request → stream text into a card → run the tool calls → feed the results back →
 * repeat until the model answers without tools (or a guardrail, a fault or Stop ends it).
 */
import type { ChatCompletionMessageParam, ChatCompletionMessageToolCall } from 'openai/resources/chat/completions';
import type { AgentState, RoleId, TurnOutcome } from '../../protocol';
import type { EventStream } from '../events';
import { LlmError, mapProviderStrings, type LlmClient, type ChatResult } from '../llm';
import type { RoleDef } from '../roles/roles';
import { modelFor, type AgentSettings } from '../settings/settings';
import type { ToolCatalog } from '../tools/tool';
import type { ToolRegistry } from '../tools/toolRegistry';
import { chatToolDef } from '../tools/chatToolDef';
import type { UsageMeter } from '../cost/usageMeter';
import type { AgentHooks, CountedUsage } from './turnHooks';
import { Dispatcher, type DispatchEnv, type TurnCounters } from './dispatcher';
import { isTurnHalt } from '../context/turnHalt';
import type { Conversation } from '../context/conversation';
import { answerTokensFor } from '../context/modelWindows';
import { maskSecret, SecretStreamMasker } from '../secrets/secretMask';
import { pathsInArguments } from '../knowledge/projectInstructions';
import { proposePlanTool } from '../tools/proposePlan';

export interface TurnContext {
  /** The role in force (asked again before each request: the user may switch mid-turn). */
  role(): RoleDef;
  settings(): AgentSettings;
  llm(): LlmClient;
  events: EventStream;
  /** The model's conversation (without the system prompt); the turn appends its answers and tool results through it. */
  conversation: Conversation;
  tools: ToolRegistry;
  /** What registry-dependent schemas and prompts need (the plan step tools), as of this request. */
  catalog(): ToolCatalog;
  usage: UsageMeter;
  hooks?: AgentHooks;
  signal: AbortSignal;
  /** `detail` says what the state waits on (shown beside it). */
  setState(state: AgentState, detail?: string): void;
  dispatchEnv: Omit<DispatchEnv, 'signal' | 'tools' | 'events' | 'role' | 'setState'>;
  /** Project knowledge: the role's instructions section, and nested instructions met by the tools' paths. */
  knowledge?: TurnKnowledge;
  /** Which of the user's hooks run when the model answers without tools: `Stop`, or `SubagentStop` for a child agent (an explorer). */
  stopEvent?: 'Stop' | 'SubagentStop';
}

export interface TurnKnowledge {
  /** Fixed for the task once read, so the system prompt stays cacheable. */
  systemText(role: RoleDef): Promise<string | undefined>;
  /** Text to send with the tool results when the calls' paths reach folders with instructions of their own. */
  touched(paths: readonly string[]): Promise<string | undefined>;
}

/** A Stop hook that exits 2 sends the agent back to work at most this many times a turn: never an endless loop. */
export const STOP_HOOK_CAP = 3;

/** Tool-call progress is reported every this many characters of arguments. */
const TOOL_CALL_PROGRESS_STEP = 4096;

export function systemPromptFor(role: RoleDef, catalog: ToolCatalog, suffix?: string): string {
  const prompt = role.systemPrompt(catalog);
  return suffix ? `${prompt}\n\n${suffix}` : prompt;
}

export async function runTurn(t: TurnContext): Promise<TurnOutcome> {
  const counters: TurnCounters = { toolCalls: 0, allowedCalls: t.settings().limits.maxToolCallsPerTurn, consecutiveErrors: 0 };
  let sentBack = 0;
  t.usage.startTurn();
  for (;;) {
    if (t.signal.aborted) return 'stopped';
    const roleDef = t.role();
    const role = roleDef.id;
    const settings = t.settings();
    const model = modelFor(settings, role);
    // The answer reserve the fitter keeps free is the max_tokens we send (capped at a quarter of the window).
    const maxTokens = answerTokensFor(model, settings);
    // Project knowledge first: finding the skills is what adds load_skill to the registry.
    const instructions = await t.knowledge?.systemText(roleDef);
    // Read from the registry for every request: a provider's tools may have changed since the last one.
    const catalog = t.catalog();
    const tools = t.tools.offeredTo(roleDef, t.dispatchEnv.planning).map((tool) => chatToolDef(tool, catalog));
    // The request: the system prompt, then the conversation (a copy the fitting hook may shorten; the conversation stays whole).
    let request: ChatCompletionMessageParam[] = [{ role: 'system', content: systemPromptFor(roleDef, catalog, instructions) }, ...t.conversation.messages];
    if (t.hooks?.fitContext) {
      try {
        request = (await t.hooks.fitContext(request, model, {
          tools,
          maxTokens,
          signal: t.signal,
          onUsage: (u) => recordUsage(t, { ...u, role }),
        })) as ChatCompletionMessageParam[];
      } catch (err) {
        // The hook ended the turn on purpose (budget spent, request cannot fit) and said why in the chat.
        if (isTurnHalt(err)) return err.outcome;
        if (t.signal.aborted) return 'stopped';
        // e.g. the request cannot fit the model's window even after condensing: say so, plainly.
        t.events.addCard({ kind: 'error', id: t.events.newId('error'), message: err instanceof Error ? err.message : String(err), retryable: false, ts: Date.now() });
        return 'error';
      }
    }

    t.setState('thinking');
    let textCardId: string | undefined;
    let waiting = false;
    let shownStep = 0;
    const textCard = () => {
      if (waiting) {
        waiting = false;
        t.setState('thinking');
      }
      if (!textCardId) {
        textCardId = t.events.newId('text');
        t.events.addCard({ kind: 'text', id: textCardId, author: 'assistant', text: '', streaming: true, role, ts: Date.now() });
      }
      return textCardId;
    };
    // A plan the model writes is shown step by step as its propose_plan call streams (plans/planDraft.ts).
    const draft = roleDef.mayPlan ? t.dispatchEnv.planning?.currentTurn?.draft : undefined;
    draft?.newAnswer();
    const started = Date.now();
    let result: ChatResult;
    // An endpoint that echoes the key back as text must not put it in the chat or history.
    const key = t.dispatchEnv.secret?.();
    const masker = new SecretStreamMasker(key);
    const reasoningMasker = new SecretStreamMasker(key);
    const showReasoning = (shown: string) => {
      if (shown) t.events.appendReasoning(textCard(), shown);
    };
    const showText = (shown: string) => {
      if (shown) t.events.appendText(textCard(), shown);
    };
    try {
      result = await t.llm().stream(
        { model, messages: request, tools, maxTokens },
        {
          signal: t.signal,
          // Prompt evaluation on a CPU server can take minutes: say what the silence is.
          onWaitingForFirstToken: ({ promptTokens, estimated }) => {
            waiting = true;
            t.setState('thinking', `Waiting for the model's first token (prompt ${estimated ? '~' : ''}${promptTokens.toLocaleString('en-US')} tokens)`);
          },
          onText: (delta) => showText(masker.push(delta)),
          // Reasoning is shown apart (collapsed) and never becomes the answer.
          onReasoning: (delta) => showReasoning(reasoningMasker.push(delta)),
          // A long tool call (a whole file's content) streams for a while with no text: show that it moves.
          onToolCallProgress: (p) => {
            const step = Math.floor(p.chars / TOOL_CALL_PROGRESS_STEP);
            if (waiting || step > shownStep) {
              waiting = false;
              shownStep = step;
              t.setState('thinking', step > 0 ? `Receiving ${p.calls === 1 ? 'a tool call' : `${p.calls} tool calls`} (${(step * TOOL_CALL_PROGRESS_STEP).toLocaleString('en-US')}+ characters)` : undefined);
            }
            if (draft) {
              const args = p.argumentsOf(proposePlanTool.name);
              if (args !== undefined) draft.write(args);
            }
          },
          // A wait before a retry would otherwise look like a frozen chat: say why and for how long.
          onRetry: (notice) => {
            draft?.newAnswer();
            t.events.addCard({ kind: 'text', id: t.events.newId('note'), author: 'system', note: 'retry', text: notice.message, ts: Date.now() });
          },
        },
      );
    } catch (err) {
      showReasoning(reasoningMasker.flush());
      showText(masker.flush());
      if (textCardId) t.events.patchCard(textCardId, { streaming: false });
      const e = err instanceof LlmError ? err : new LlmError('unknown', String(err));
      draft?.streamFailed(e.message, e.kind === 'stopped' || t.signal.aborted);
      recordUsage(t, { model, role, tokensIn: 0, tokensOut: 0, latencyMs: Date.now() - started, outcome: e.kind });
      if (e.kind === 'stopped' || t.signal.aborted) return 'stopped';
      t.events.addCard({ kind: 'error', id: t.events.newId('error'), message: e.message, ...(e.detail && e.detail !== e.message ? { detail: e.detail } : {}), retryable: e.retryable, failure: e.kind, ts: Date.now() });
      return 'error';
    }
    showReasoning(reasoningMasker.flush());
    showText(masker.flush());
    draft?.arrived();
    // The message's provider fields are kept on its text card (or its first call's card) so a
    // resumed task, rebuilt from cards, can send them back; masked like everything stored.
    const storedFields = result.messageFields ? mapProviderStrings(result.messageFields, (s) => maskSecret(s, key)) : undefined;
    if (textCardId) t.events.patchCard(textCardId, { streaming: false, ...(storedFields ? { provider_fields: storedFields } : {}) });
    result = { ...result, text: maskSecret(result.text, key) };
    recordUsage(t, {
      model: result.model || model,
      role,
      tokensIn: result.usage.tokensIn,
      tokensOut: result.usage.tokensOut,
      latencyMs: result.latencyMs,
      outcome: result.toolCalls.length ? 'tool_calls' : result.finishReason === 'length' ? 'length' : 'ok',
      estimated: result.usage.estimated,
    });

    if (result.toolCalls.length === 0) {
      // An empty answer would leave the chat silent: say so rather than show nothing.
      if (!result.text.trim()) t.events.addCard({ kind: 'text', id: t.events.newId('note'), author: 'system', text: result.reasoning.trim() ? 'The model only showed its reasoning and sent no answer.' : 'The model sent an empty answer.', ts: Date.now() });
      if (result.finishReason === 'length') {
        t.events.addCard({ kind: 'text', id: t.events.newId('note'), author: 'system', text: `The answer was cut off: the model reached its output limit (max tokens ${maxTokens}). Ask it to continue, or raise the max tokens setting.`, ts: Date.now() });
      }
      t.conversation.append({ role: 'assistant', content: result.text, ...(result.messageFields ?? {}) } as ChatCompletionMessageParam);
      const back = await stopHooks(t, sentBack);
      if (back === undefined || t.signal.aborted) return t.signal.aborted ? 'stopped' : 'done';
      sentBack++;
      t.conversation.appendUser(`A ${t.stopEvent ?? 'Stop'} hook sent you back to work: ${back}`);
      continue;
    }

    // Some servers number calls per message ("call_0" every time). Approvals, answers and reverts are
    // addressed by call id, so a stale click meant for an earlier call must never match a later one:
    // an id already used in this conversation gets a suffix, here, before anything sees it.
    const used = t.conversation.usedCallIds();
    const calls = result.toolCalls.map((c, i) => {
      let id = c.id;
      for (let n = 2; used.has(id); n++) id = `${c.id}_${n}`;
      used.add(id);
      const messageFields = i === 0 && !textCardId ? storedFields : undefined;
      return id === c.id && !messageFields ? c : { ...c, id, ...(messageFields ? { messageFields } : {}) };
    });
    // Provider fields go back verbatim (Gemini rejects the next request without the thought signature
    // on its calls; DeepSeek wants its reasoning_content on turns with tool calls).
    const toolCalls: ChatCompletionMessageToolCall[] = calls.map(({ messageFields: _cardOnly, ...c }) => ({
      ...(c.providerFields ?? {}),
      id: c.id,
      type: 'function',
      function: { name: c.name, arguments: c.arguments.trim() === '' ? '{}' : c.arguments },
    }));
    t.conversation.append({ ...(result.messageFields ?? {}), role: 'assistant', content: result.text || null, tool_calls: toolCalls } as ChatCompletionMessageParam);

    const dispatcher = new Dispatcher({ ...t.dispatchEnv, signal: t.signal, tools: t.tools, events: t.events, role: t.role, setState: t.setState });
    const { outcomes, end } = await dispatcher.dispatch(calls, counters);
    for (const o of outcomes) t.conversation.appendToolResult(o.callId, o.content);
    // A folder's own AGENTS.md goes with the results of the calls that first reached it.
    const met = await t.knowledge?.touched(calls.flatMap((c) => pathsInArguments(c.arguments)));
    if (met) t.conversation.extendLastToolResult(met);

    switch (end) {
      case 'continue':
        break;
      case 'end_turn':
        return 'done';
      case 'stopped':
        return 'stopped';
      case 'waiting':
        return 'waiting';
      case 'limit':
        return 'limit';
      case 'errors':
        t.events.addCard({
          kind: 'error',
          id: t.events.newId('error'),
          message: `Stopped after ${counters.consecutiveErrors} tool calls failed in a row. Tell the agent how to proceed.`,
          ...(counters.lastError ? { detail: `Last error: ${counters.lastError.slice(0, 2000)}` } : {}),
          retryable: false,
          ts: Date.now(),
        });
        return 'error';
    }
  }
}

/**
 * The user's Stop hooks when the model answered without tools: the reason to go on when one exits 2
 * (and the cap allows it), else undefined. What they said and how they failed is shown in the chat.
 */
async function stopHooks(t: TurnContext, sentBack: number): Promise<string | undefined> {
  const u = t.dispatchEnv.userHooks;
  const event = t.stopEvent ?? 'Stop';
  if (!u?.hooks.has(event)) return undefined;
  const out = await u.hooks.stop(event, sentBack > 0, { ...u.scope(), signal: t.signal });
  const note = (text: string, kind: 'hook' | 'hook_failed' = 'hook') => t.events.addCard({ kind: 'text', id: t.events.newId('note'), author: 'system', note: kind, text: maskSecret(text, t.dispatchEnv.secret?.()), ts: Date.now() });
  for (const w of out.warnings) note(`Hook failed: ${w}`, 'hook_failed');
  if (out.block === undefined) return undefined;
  if (sentBack >= STOP_HOOK_CAP) {
    note(`A ${event} hook asked the agent to go on again (${out.block}); it already went back ${STOP_HOOK_CAP} times this turn, so the turn ends here.`);
    return undefined;
  }
  note(`A ${event} hook sent the agent back to work: ${out.block}`);
  return out.block;
}

function recordUsage(t: TurnContext, u: UsageRecord): void {
  emitUsage(t.events, t.usage, u, t.hooks?.onUsage);
}

export interface UsageRecord { model: string; role: RoleId; tokensIn: number; tokensOut: number; latencyMs: number; outcome: string; estimated?: boolean }

/** One `usage` card per LLM request plus the running totals (turn and task); then `onUsage` is told. */
export function emitUsage(events: EventStream, meter: UsageMeter, u: UsageRecord, onUsage?: (usage: CountedUsage) => void): void {
  const r = meter.record(u.model, u.tokensIn, u.tokensOut);
  events.addCard({
    kind: 'usage',
    id: events.newId('usage'),
    model: u.model,
    role: u.role,
    tokens_in: u.tokensIn,
    tokens_out: u.tokensOut,
    latency_ms: u.latencyMs,
    ...(r.cost_usd !== undefined ? { cost_usd: r.cost_usd } : {}),
    ...(u.estimated ? { estimated: true } : {}),
    outcome: u.outcome,
    ts: Date.now(),
  });
  const strip = (x: { tokens_in: number; tokens_out: number; cost_usd?: number }) => ({ tokens_in: x.tokens_in, tokens_out: x.tokens_out, ...(x.cost_usd !== undefined ? { cost_usd: x.cost_usd } : {}) });
  events.emit({ type: 'usage_total', turn: strip(r.turn), task: strip(r.task) });
  onUsage?.({ model: u.model, role: u.role, tokensIn: u.tokensIn, tokensOut: u.tokensOut, ...(r.cost_usd !== undefined ? { costUsd: r.cost_usd } : {}), outcome: u.outcome });
}
