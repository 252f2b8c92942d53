import { API_KEY_ENV_VARS } from '../core/secrets/apiKeyEnv';
import { scrubInitialEnviron } from '../host/node/scrubInitialEnviron';

/**
 * The environment for the CLI to read its settings (and the key) from, while the process's own
 * environment loses the key variables, so nothing started from here (commands, git, a language
 * server, the user's hooks) inherits them. `/proc/<pid>/environ` shows what the process started
 * with, so the values are also blanked there (scrubInitialEnviron.ts): a hook runs outside the
 * sandbox and could otherwise read its parent's. Commands in the sandbox cannot see this process at all (own PID namespace).
 */
export function detachKeyFromProcess(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of API_KEY_ENV_VARS) delete process.env[name];
  const scrub = scrubInitialEnviron(API_KEY_ENV_VARS);
  // Said, not hidden: where the kernel refuses the blanking, a process of the same user (an MCP
  // server, a hook) can read the key in /proc/<pid>/environ for as long as this run lasts.
  if ('failed' in scrub && process.platform === 'linux' && API_KEY_ENV_VARS.some((n) => env[n])) {
    process.stderr.write(`[warn] the API key could not be blanked in /proc/${process.pid}/environ (${scrub.failed}); MCP servers and hooks of this run could read it there\n`);
  }
  return env;
}
