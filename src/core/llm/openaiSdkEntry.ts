/**
 * The parts of the `openai` SDK Tandem uses, as one module: the build bundles this file on its own
 * as `dist/openai-sdk.js`, loaded on the first request or connection test (openaiSdk.ts), so the
 * extension bundle does not carry the SDK (~146 KB) and activation does not pay for loading it.
 */
export {
  default as OpenAI,
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
} from 'openai';
