/**
 * The Reviewer at work: a plan version before it runs, or a step after it ran. Each review is one
 * tool-less structured request (with repairs and fallback models, see requestVerdict.ts) in the
 * Reviewer role — its own prompt, its own model — that sees only its brief. It never runs a tool,
 * so it cannot change anything by any road; and its verdict only ever stops things: the user
 * decides what happens next.
 */
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { Plan, PlanStep, ReviewLearn, ReviewResult, RoleRegistry } from '../../protocol';
import type { LearnedFrom } from '../facts/learnFromVerdict';
import type { LlmClient, RetryNotice } from '../llm/llmClient';
import type { Logger } from '../ports/ports';
import type { PromptContext, RoleDef } from '../roles/roles';
import { modelFor, type AgentSettings } from '../settings/settings';
import type { StructuredOutputs } from '../plans/structuredOutputs';
import type { StepVerdict } from '../plans/stepVerdict';
import { promptVersion } from '../roles/promptVersion';
import { answerTokensFor } from '../context/modelWindows';
import { requestVerdict } from './requestVerdict';
import { planReviewBrief, stepReviewBrief, verdictChecks } from './reviewBriefs';

export interface ReviewerDeps {
  roles: RoleRegistry<RoleDef>;
  settings(): AgentSettings;
  llm(): LlmClient;
  structured: StructuredOutputs;
  logger: Logger;
  promptContext(): PromptContext;
  /** One request's usage, as the loop records it (a usage card, totals, budgets). */
  onUsage(u: { model: string; role: string; tokensIn: number; tokensOut: number; latencyMs: number; estimated?: boolean }): void;
  onRetry?(notice: RetryNotice): void;
  now?(): number;
  /** A valid verdict's `learn`, with where it came from: kept as a fact (or refused) by the task. */
  learn?(learn: ReviewLearn, from: LearnedFrom): Promise<void>;
}

export class Reviewer {
  constructor(private readonly deps: ReviewerDeps) {}

  /** The role that reviews, if the registry has one. */
  get role(): RoleDef | undefined {
    return this.deps.roles.reviewer;
  }

  reviewPlan(plan: Plan, version: number, signal: AbortSignal): Promise<ReviewResult> {
    return this.ask(planReviewBrief(plan, version), verdictChecks('plan', plan.steps.length), signal, undefined, new Map());
  }

  reviewStep(plan: Plan, step: PlanStep, ended: StepVerdict, diff: string, signal: AbortSignal): Promise<ReviewResult> {
    const brief = stepReviewBrief({ goal: plan.goal, step, total: plan.steps.length, state: ended.state, evidence: ended.evidence, diff });
    const check = ended.evidence?.check;
    const shown = new Map(check ? [[check.command.trim(), check.output]] : []);
    return this.ask(brief, verdictChecks('step', plan.steps.length, [...shown.keys()]), signal, step.step_number, shown);
  }

  private async ask(brief: string, check: ReturnType<typeof verdictChecks>, signal: AbortSignal, step: number | undefined, commandOutputs: ReadonlyMap<string, string>): Promise<ReviewResult> {
    const role = this.role;
    if (!role) throw new Error('no role here reviews plans');
    const settings = this.deps.settings();
    const system = role.systemPrompt(this.deps.promptContext());
    const primary = modelFor(settings, role.id);
    const models = [...new Set([primary, ...(settings.fallbackModels?.[role.id] ?? [])].filter(Boolean))];
    const answer = await requestVerdict({
      complete: async (model, request, responseFormat, sig) => {
        const r = await this.deps.llm().stream({
          model,
          messages: request as unknown as ChatCompletionMessageParam[],
          maxTokens: answerTokensFor(model, settings),
          ...(responseFormat ? { responseFormat } : {}),
        }, { signal: sig, ...(this.deps.onRetry ? { onRetry: this.deps.onRetry } : {}) });
        this.deps.onUsage({ model: r.model, role: role.id, tokensIn: r.usage.tokensIn, tokensOut: r.usage.tokensOut, latencyMs: r.latencyMs, ...(r.usage.estimated ? { estimated: true } : {}) });
        return { text: r.text, latencyMs: r.latencyMs };
      },
      structured: this.deps.structured,
      logger: this.deps.logger,
      signal,
      models,
      repairs: settings.limits.planRepairTries,
      system,
      promptVersion: promptVersion(role.id, system),
      brief,
      check,
    });
    const learn = answer.verdict?.learn;
    if (learn && this.deps.learn) {
      // What is learned never costs the verdict: a failure to keep the fact is logged, the verdict stands.
      try {
        await this.deps.learn(learn, { model: answer.provenance.model, role: role.id, ...(step !== undefined ? { step } : {}), commandOutputs });
      } catch (err) {
        this.deps.logger.warn(`review: the fact the verdict learned could not be kept: ${(err as Error).message}`);
      }
    }
    return {
      verdict: answer.verdict,
      ...(answer.error ? { error: answer.error } : {}),
      ...(step !== undefined ? { step } : {}),
      provenance: answer.provenance,
      ts: (this.deps.now ?? Date.now)(),
    };
  }
}
