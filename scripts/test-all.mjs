// `npm test`: every stage in order; each stage prints its own `N passed, N failed` line.
// The foundation work adds the integration and UI stages here.
import { spawnSync } from 'node:child_process';

const stages = [
  ['typecheck', 'npm', ['run', '-s', 'typecheck']],
  ['build', 'npm', ['run', '-s', 'build']],
  ['unit', 'npm', ['run', '-s', 'test:unit']],
];
let failed = 0;
for (const [name, cmd, args] of stages) {
  console.log(`\n=== ${name} ===`);
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  if (r.status !== 0) { failed++; console.error(`stage ${name} failed (exit ${r.status})`); }
}
process.exit(failed ? 1 : 0);
