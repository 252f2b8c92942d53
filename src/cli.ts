// The headless entry (`tandem`): see src/cli/runCli.ts and `tandem --help`.
import { runCli } from './cli/runCli';
import { API_KEY_ENV_VARS } from './core/apiKeyEnv';

function onInterrupt(handler: () => void): () => void {
  let count = 0;
  const listener = () => {
    count++;
    if (count > 1) process.exit(130);
    handler();
  };
  process.on('SIGINT', listener);
  return () => process.off('SIGINT', listener);
}

// The key is read from this copy; the process's own environment loses it, so nothing started from
// here (commands, git, a language server) inherits it.
const env = { ...process.env };
for (const name of API_KEY_ENV_VARS) delete process.env[name];

runCli({
  argv: process.argv.slice(2),
  env,
  stdout: (s) => void process.stdout.write(s),
  stderr: (s) => void process.stderr.write(s),
  isTty: !!process.stdin.isTTY && !!process.stderr.isTTY,
  cwd: process.cwd(),
  onInterrupt,
}).then(
  (code) => {
    // Let stdout drain before exiting (piped output is asynchronous).
    process.stdout.write('', () => process.exit(code));
  },
  (err) => {
    process.stderr.write(`tandem: internal error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
