/**
 * Whether to ask for plans with `response_format: json_schema` (setting `structuredOutputs`).
 * 'on' always asks; 'off' never does (JSON is extracted from text); 'auto' asks until an endpoint
 * answers with a 400 saying it does not support it, then extracts for the rest of the session.
 */
import type { Logger } from '../ports/ports';

export type StructuredOutputsSetting = 'auto' | 'on' | 'off';

export class StructuredOutputs {
  private unsupported = false;
  /** The endpoint refused string lengths in the schema: send it without them. */
  portable = false;

  constructor(private setting: StructuredOutputsSetting, private readonly logger: Logger) {}

  update(setting: StructuredOutputsSetting): void {
    if (setting !== this.setting) this.unsupported = false;
    this.setting = setting;
  }

  /** True when the next plan request should carry `response_format: json_schema`. */
  get use(): boolean {
    return this.setting === 'on' || (this.setting === 'auto' && !this.unsupported);
  }

  /**
   * Called with a failed plan request. True when it was the endpoint refusing `response_format` in
   * 'auto' mode: the caller retries by extraction, and later requests skip json_schema.
   */
  fallBackAfter(err: unknown): boolean {
    if (this.setting !== 'auto' || !isResponseFormatUnsupported(err)) return false;
    // A refused keyword (OpenAI's strict mode and string lengths) costs the constraints, not the schema.
    if (!this.portable && refusesSchemaKeyword(err)) {
      this.portable = true;
      this.logger.warn(`plan: endpoint refused a schema constraint (${shortMessage(err)}); sending the schema without string lengths`);
      return true;
    }
    this.unsupported = true;
    this.logger.warn(`plan: endpoint rejected response_format json_schema (${shortMessage(err)}); using JSON extraction from text for this session`);
    return true;
  }
}

/** The refusal names a length keyword (e.g. "'minLength' is not permitted"). */
function refusesSchemaKeyword(err: unknown): boolean {
  const e = err as { message?: string; opts?: { detail?: string }; error?: unknown };
  return /minLength|maxLength/.test(`${e.message ?? ''} ${e.opts?.detail ?? ''} ${safeJson(e.error)}`);
}

/** A 400 (or 422) whose message is about response_format / json_schema / structured outputs. */
export function isResponseFormatUnsupported(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { status?: number; opts?: { status?: number; detail?: string }; message?: string; error?: unknown };
  const status = e.status ?? e.opts?.status;
  if (status !== 400 && status !== 422) return false;
  const text = `${e.message ?? ''} ${e.opts?.detail ?? ''} ${safeJson(e.error)}`;
  return /response_format|json_schema|structured output|json schema/i.test(text);
}

function safeJson(v: unknown): string {
  try {
    return v === undefined ? '' : JSON.stringify(v);
  } catch {
    return '';
  }
}

function shortMessage(err: unknown): string {
  return String((err as Error)?.message ?? err).slice(0, 200);
}
