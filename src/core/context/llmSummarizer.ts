import { LlmClient, type LlmClientOptions, type RetryNotice } from '../llm/llmClient';
import type { ChatMessage } from './chatMessage';
import type { SummaryResult, Summarizer } from './contextFitter';

/** The summary request goes to the same endpoint as the agent's, with the summary model. */
export class LlmSummarizer implements Summarizer {
  private readonly client: LlmClient;

  /** `onRetry`: a retry wait of the summary request, for the chat (condensing otherwise looks like a hang). */
  constructor(options: LlmClientOptions, private readonly onRetry?: (notice: RetryNotice) => void) {
    this.client = new LlmClient(options);
  }

  async summarize(messages: ChatMessage[], model: string, maxTokens: number, signal?: AbortSignal): Promise<SummaryResult> {
    const r = await this.client.stream({ model, messages, maxTokens }, { signal, ...(this.onRetry ? { onRetry: this.onRetry } : {}) });
    return { text: r.text, model: r.model || model, tokensIn: r.usage.tokensIn, tokensOut: r.usage.tokensOut, latencyMs: r.latencyMs };
  }
}
