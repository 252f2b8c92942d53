import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { LlmClient } from '../llm/llmClient';
import type { PlanCompleter } from './requestPlan';

/** `requestPlan`'s completion through the loop's streamed client: no tools, optional response_format. */
export function llmPlanCompleter(client: LlmClient, model: string, maxTokens: number, onUsage?: (r: Awaited<ReturnType<LlmClient['stream']>>) => void): PlanCompleter {
  return async (messages, responseFormat, signal) => {
    const r = await client.stream({
      model,
      messages: messages as unknown as ChatCompletionMessageParam[],
      maxTokens,
      ...(responseFormat ? { responseFormat } : {}),
    }, { signal });
    onUsage?.(r);
    return { text: r.text };
  };
}
