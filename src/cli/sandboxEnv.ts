/**
 * The CLI's sandbox settings, from the environment:
 * - `TANDEM_SANDBOX_NETWORK=1`: commands get the network without asking (default: off; a command
 *   the model marks as needing it is then approved one by one);
 * - `TANDEM_SANDBOX_SECRETS`: comma-separated basename patterns hidden from commands (default `.env*,*.pem,*.key`);
 * - `TANDEM_SANDBOX_ALLOW`: comma-separated patterns shown to commands after all (`.env.example`);
 * - `TANDEM_BWRAP`: the bwrap binary, or `off` to run without the sandbox (commands then always ask).
 */
import type { SandboxSettings } from '../host/node/sandbox/sandboxedCommand';

const list = (v: string | undefined) => (v === undefined ? undefined : v.split(',').map((s) => s.trim()).filter(Boolean));

export function sandboxSettingsFromEnv(env: NodeJS.ProcessEnv): SandboxSettings {
  const secretFiles = list(env.TANDEM_SANDBOX_SECRETS);
  const allowSecretFiles = list(env.TANDEM_SANDBOX_ALLOW);
  return {
    env,
    network: env.TANDEM_SANDBOX_NETWORK === '1' || env.TANDEM_SANDBOX_NETWORK === 'true',
    ...(secretFiles ? { secretFiles } : {}),
    ...(allowSecretFiles ? { allowSecretFiles } : {}),
  };
}
