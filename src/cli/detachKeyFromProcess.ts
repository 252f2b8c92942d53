import { API_KEY_ENV_VARS } from '../core/secrets/apiKeyEnv';

/**
 * The environment for the CLI to read its settings (and the key) from, while the process's own
 * environment loses the key variables, so nothing started from here (commands, git, a language
 * server) inherits them. (`/proc/<pid>/environ` still shows what the process started with; the
 * command sandbox's own PID namespace is what keeps commands from reading that.)
 */
export function detachKeyFromProcess(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of API_KEY_ENV_VARS) delete process.env[name];
  return env;
}
