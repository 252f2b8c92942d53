import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { LlmClient, RetryNotice } from '../llm/llmClient';
import type { PlanCompleter } from './requestPlan';

/** `requestPlan`'s completion through the loop's streamed client: no tools, optional response_format. */
export function llmPlanCompleter(
  client: LlmClient,
  model: string,
  maxTokens: number,
  onUsage?: (r: Awaited<ReturnType<LlmClient['stream']>>) => void,
  /** A retry wait, for the chat (as the loop shows it). */
  onRetry?: (notice: RetryNotice) => void,
): PlanCompleter {
  return async (request, responseFormat, signal, onText) => {
    const r = await client.stream({
      model,
      messages: request as unknown as ChatCompletionMessageParam[],
      maxTokens,
      ...(responseFormat ? { responseFormat } : {}),
    }, { signal, ...(onRetry ? { onRetry } : {}), ...(onText ? { onText } : {}) });
    onUsage?.(r);
    return { text: r.text };
  };
}
