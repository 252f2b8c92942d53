export { LlmClient, DEFAULT_REQUEST_DEADLINE_MS, type ChatRequest, type ChatResult, type ChatUsage, type LlmClientOptions, type StreamHandlers, type RetryNotice } from './llmClient';
export { LlmError, toLlmError, redact, type LlmFailureKind } from './llmError';
export { ToolCallAccumulator, type AccumulatedToolCall } from './toolCallAccumulator';
export { StreamAssembler } from './streamAssembler';
export { mapProviderStrings, type ProviderFields } from './providerFields';
