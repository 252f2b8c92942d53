/**
 * The lint tests' kit: write a small tree of files, run the lint stage (scripts/lint.mjs) on it as
 * `npm test` runs it, and remove the trees after the suite.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const repoRoot = path.resolve(__dirname, __dirname.includes(path.join('out', 'test')) ? '../../../..' : '../../..');

export interface LintRun { status: number | null; out: string }

/** Trees made by `make` are removed after the calling suite; `lint` runs the stage on one. */
export function lintTrees(prefix: string): { make(files: Record<string, string>): string; lint(dir: string): LintRun } {
  const dirs: string[] = [];
  after(() => { for (const d of dirs) fs.rmSync(d, { recursive: true, force: true }); });
  return {
    make(files) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
      for (const [name, text] of Object.entries(files)) {
        fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
        fs.writeFileSync(path.join(dir, name), text);
      }
      dirs.push(dir);
      return dir;
    },
    lint(dir) {
      const r = spawnSync(process.execPath, [path.join(repoRoot, 'scripts', 'lint.mjs'), '--root', dir], { encoding: 'utf8' });
      return { status: r.status, out: r.stdout + r.stderr };
    },
  };
}
