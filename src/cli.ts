// The headless entry (`tandem`): see src/cli/runCli.ts and `tandem --help`.
import { runCli } from './cli/runCli';
import { detachKeyFromProcess } from './cli/detachKeyFromProcess';

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

const env = detachKeyFromProcess();

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
