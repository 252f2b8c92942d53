/**
 * Asks the Reviewer for a verdict and gets a valid one or says why not. The same road as plans:
 * `response_format: json_schema` where the endpoint takes it (else JSON extracted from the text),
 * zod validation plus the caller's semantic checks, and the errors sent back for a bounded repair.
 * When a model's repairs are used up, the next model of the role's fallback list gets the same
 * brief from the start. Every answer is kept (provenance): which model, the raw text, its errors.
 */
import { ReviewVerdict, type StructuredAttempt, type VerdictProvenance } from '../../protocol';
import type { Logger } from '../ports/ports';
import { extractJson } from '../plans/extractJson';
import type { PlanMessage } from '../plans/requestPlan';
import type { StructuredOutputs } from '../plans/structuredOutputs';
import { verdictResponseFormat } from './verdictJsonSchema';

/** One tool-less completion with an optional response format, on the given model. */
export type VerdictCompleter = (
  model: string,
  messages: PlanMessage[],
  responseFormat: ReturnType<typeof verdictResponseFormat> | undefined,
  signal: AbortSignal,
) => Promise<{ text: string; latencyMs: number }>;

export interface VerdictRequest {
  complete: VerdictCompleter;
  structured: StructuredOutputs;
  logger: Logger;
  signal: AbortSignal;
  /** The role's model first, then its fallbacks. */
  models: readonly string[];
  /** Repairs per model after a rejected answer. */
  repairs: number;
  system: string;
  promptVersion: string;
  brief: string;
  /** Semantic checks beyond the schema (a concern names a step that does not exist, …): error lines. */
  check?: (verdict: ReviewVerdict) => string[];
}

export interface VerdictAnswer {
  verdict: ReviewVerdict | null;
  error?: string;
  provenance: VerdictProvenance;
}

const AS_JSON = 'Answer with the verdict as JSON matching the schema.';
const AS_TEXT = 'Answer with only one ```json block holding {"verdict": "ok"|"revise"|"replan", "reasons": [strings], "concerns": [{"step": number|null, "file": string|null, "line": number|null, "text": string}], "learn": null|{"text": string, "file": string|null, "start_line": number|null, "end_line": number|null, "command": string|null}}.';

export async function requestVerdict(r: VerdictRequest): Promise<VerdictAnswer> {
  const attempts: StructuredAttempt[] = [];
  const fallbacks: string[] = [];
  let repairs = 0;
  let lastError = 'no answer';
  for (const [i, model] of r.models.entries()) {
    if (i > 0) {
      fallbacks.push(model);
      r.logger.warn(`review: ${r.models[i - 1]} gave no valid verdict; trying the fallback model ${model}`);
    }
    let useSchema = r.structured.use;
    // The Reviewer's own request (not the task's conversation): its brief, then each repair exchange.
    const request: PlanMessage[] = [
      { role: 'system', content: r.system },
      { role: 'user', content: `${r.brief}\n\n${useSchema ? AS_JSON : AS_TEXT}` },
    ];
    for (let tries = 0; tries <= r.repairs;) {
      let answer: { text: string; latencyMs: number };
      try {
        answer = await r.complete(model, request, useSchema ? verdictResponseFormat({ portable: r.structured.portable }) : undefined, r.signal);
      } catch (err) {
        if (useSchema && r.structured.fallBackAfter(err)) {
          if (!r.structured.use) {
            useSchema = false;
            request[1] = { role: 'user', content: `${r.brief}\n\n${AS_TEXT}` };
          }
          continue;
        }
        // A fallback model is worth trying when this one cannot answer at all (unknown model, server error).
        if (r.signal.aborted || i === r.models.length - 1) throw err;
        lastError = `${model}: ${(err as Error).message ?? String(err)}`;
        attempts.push({ model, raw: '', errors: [lastError], failure: 'request' });
        break;
      }
      const errors = check(answer.text, r.check);
      attempts.push({ model, raw: answer.text, errors: errors.ok ? [] : errors.errors, latency_ms: answer.latencyMs, ...(errors.ok ? {} : { failure: errors.failure }) });
      const provenance = (): VerdictProvenance => ({ model, prompt_version: r.promptVersion, raw: answer.text, attempts: [...attempts], repairs, fallbacks: [...fallbacks] });
      if (errors.ok) {
        r.logger.info(`review: verdict "${errors.verdict.verdict}" from ${model}${repairs ? ` after ${repairs} repair(s)` : ''}`);
        return { verdict: errors.verdict, provenance: provenance() };
      }
      lastError = errors.errors.join('; ');
      r.logger.warn(`review: ${model}'s verdict failed validation: ${lastError}`);
      tries++;
      if (tries > r.repairs) break;
      repairs++;
      request.push({ role: 'assistant', content: answer.text }, { role: 'user', content: repairPrompt(errors.errors) });
    }
  }
  const last = attempts[attempts.length - 1];
  return {
    verdict: null,
    error: `No valid verdict after ${repairs} repair(s)${fallbacks.length ? ` and ${fallbacks.length} fallback model(s)` : ''}: ${lastError}`,
    provenance: { model: last?.model ?? r.models[0] ?? '', prompt_version: r.promptVersion, raw: last?.raw ?? '', attempts, repairs, fallbacks },
  };
}

function check(text: string, semantic?: (v: ReviewVerdict) => string[]): { ok: true; verdict: ReviewVerdict } | { ok: false; errors: string[]; failure: 'parse' | 'validation' } {
  const found = extractJson(text);
  if (!found.ok) return { ok: false, errors: [found.error], failure: 'parse' };
  const parsed = ReviewVerdict.safeParse(dropNulls(found.value));
  if (!parsed.success) {
    return { ok: false, failure: 'validation', errors: parsed.error.issues.slice(0, 8).map((i) => `${i.path.length ? i.path.join('.') : '(verdict)'}: ${i.message}`) };
  }
  const more = semantic?.(parsed.data) ?? [];
  return more.length ? { ok: false, errors: more, failure: 'validation' } : { ok: true, verdict: parsed.data };
}

/** Strict schemas send optional fields as null; the verdict keeps them absent. */
function dropNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(dropNulls);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== null).map(([k, x]) => [k, dropNulls(x)]));
  return v;
}

function repairPrompt(errors: readonly string[]): string {
  return ['The verdict was rejected:', ...errors.map((e) => `- ${e}`), 'Answer again with only the whole corrected verdict as JSON.'].join('\n');
}
