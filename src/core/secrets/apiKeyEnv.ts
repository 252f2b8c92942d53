/**
 * The environment variables the CLI reads the API key from, first found wins. Commands the agent
 * runs get an environment without any of them (a command that printed one would hand the key to
 * the model, the chat and history), and the CLI removes them from its own environment once read.
 */
export const API_KEY_ENV_VARS = ['TANDEM_API_KEY', 'OPENAI_API_KEY'] as const;

export function apiKeyFromEnv(env: NodeJS.ProcessEnv): string {
  for (const name of API_KEY_ENV_VARS) {
    const v = env[name];
    if (v !== undefined) return v;
  }
  return '';
}

/** A copy of `env` without the key variables. */
export function withoutApiKey(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out = { ...env };
  for (const name of API_KEY_ENV_VARS) delete out[name];
  return out;
}
