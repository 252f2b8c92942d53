/**
 * `tandem eval --from-git N`: tasks made from the repository's own history. The last N commits
 * (first parents, no merges) that change both code and tests each become a task:
 *  - the repository: the commit's parent, as files only (taskCopy.ts; never the history, which
 *    holds the answer);
 *  - the prompt: the commit's message, in its author's words;
 *  - the verifier: the test files as the commit left them, laid over the agent's work, then the
 *    test command (`--test-command`, else the repository's own: `npm test`, `make test`);
 *  - the reference change: the code files as the commit left them.
 * The tests the commit changed are the verifier, so they stay out of the copy as well: the agent
 * has the commit's message and the code as it was, as the author had.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { EVAL_TASK_FORMAT, type EvalTask, type EvalTaskSpec } from '../../../core/eval/evalTask';
import { git, gitOrThrow } from './git';

/** Test files by the usual conventions: a tests folder, `*.test.*` / `*.spec.*`, `test_*.py`, `*_test.*`. */
export function isTestFile(file: string): boolean {
  const base = path.posix.basename(file);
  return (
    /(^|\/)(tests?|__tests__|spec|specs)\//.test(file) ||
    /[._-](test|spec)\.[A-Za-z0-9]+$/.test(base) ||
    /^test_.*\.py$/.test(base) ||
    /_test\.[A-Za-z0-9]+$/.test(base)
  );
}

/** Files that are neither code nor tests: documentation, licences, CI. */
function isOther(file: string): boolean {
  return /\.(md|rst|txt|adoc)$/i.test(file) || /(^|\/)(LICEN[CS]E|NOTICE|CHANGELOG|AUTHORS)[^/]*$/i.test(file) || file.startsWith('.github/') || /(^|\/)package-lock\.json$/.test(file);
}

export interface GitTaskCommit {
  sha: string;
  parent: string;
  message: string;
  code: string[];
  tests: string[];
  deleted: string[];
}

/** The last `n` commits reachable from HEAD (first parents, no merges) that change code and tests. */
export function commitsWithCodeAndTests(repo: string, n: number, scan = 300): GitTaskCommit[] {
  const shas = gitOrThrow(repo, ['log', '--first-parent', '--no-merges', `-n${scan}`, '--format=%H']).split('\n').filter(Boolean);
  const out: GitTaskCommit[] = [];
  for (const sha of shas) {
    if (out.length >= n) break;
    const parent = git(repo, ['rev-parse', '--verify', '-q', `${sha}^`]);
    if (!parent.ok) continue;
    const changes = gitOrThrow(repo, ['diff-tree', '--no-commit-id', '-r', '--name-status', '--no-renames', sha]).split('\n').filter(Boolean).map((l) => {
      const [status, ...rest] = l.split('\t');
      return { status: status ?? '', file: rest.join('\t') };
    });
    const code = changes.filter((c) => !isTestFile(c.file) && !isOther(c.file));
    const tests = changes.filter((c) => isTestFile(c.file) && c.status !== 'D');
    if (!code.length || !tests.length) continue;
    out.push({
      sha,
      parent: parent.stdout.trim(),
      message: gitOrThrow(repo, ['log', '-1', '--format=%B', sha]).trim(),
      code: code.filter((c) => c.status !== 'D').map((c) => c.file),
      tests: tests.map((c) => c.file),
      deleted: code.filter((c) => c.status === 'D').map((c) => c.file),
    });
  }
  return out;
}

/** The repository's own test command: `npm test` when package.json has a test script, `make test` when the Makefile has the target. */
export function repositoryTestCommand(repo: string): string | undefined {
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
    if (pkg.scripts?.test && !/no test specified/.test(pkg.scripts.test)) return 'npm test --silent';
  } catch {
    /* no package.json */
  }
  try {
    if (/^test:/m.test(fs.readFileSync(path.join(repo, 'Makefile'), 'utf8'))) return 'make test';
  } catch {
    /* no Makefile */
  }
  return undefined;
}

function writeFilesAt(repo: string, sha: string, files: readonly string[], into: string): void {
  for (const f of files) {
    // Raw bytes: a binary file would not survive a round trip through utf8.
    const raw = spawnSync('git', ['show', `${sha}:${f}`], { cwd: repo, maxBuffer: 256 * 1024 * 1024 });
    if (raw.status !== 0) continue;
    const to = path.join(into, f);
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.writeFileSync(to, raw.stdout);
  }
}

/**
 * Writes one task folder per commit under `into` (`01-<sha>`…, the most recent first) and returns
 * the tasks. Throws with a message a user can act on when there is no test command or no such commit.
 */
export function buildGitTasks(repo: string, n: number, into: string, testCommand?: string): EvalTask[] {
  const top = gitOrThrow(repo, ['rev-parse', '--show-toplevel']).trim();
  const command = testCommand ?? repositoryTestCommand(top);
  if (!command) throw new Error(`no test command: ${top} has no "test" script in package.json and no "test" target in a Makefile; say it with --test-command "…"`);
  const commits = commitsWithCodeAndTests(top, n);
  if (!commits.length) throw new Error(`no commit in ${top}'s recent history changes both code and tests`);
  fs.mkdirSync(into, { recursive: true });
  return commits.map((c, i) => {
    const id = `${String(i + 1).padStart(2, '0')}-${c.sha.slice(0, 10)}`;
    const dir = path.join(into, id);
    fs.rmSync(dir, { recursive: true, force: true });
    writeFilesAt(top, c.sha, c.tests, path.join(dir, 'verify'));
    writeFilesAt(top, c.sha, c.code, path.join(dir, 'reference'));
    const spec: EvalTaskSpec = {
      format: EVAL_TASK_FORMAT,
      prompt: c.message,
      repo: { git: top, ref: c.parent },
      setup: [],
      verify: { command, files: 'verify', timeoutSeconds: 300 },
      reference: 'reference',
      limits: { minutes: 15, toolCalls: 60 },
      source: { project: path.basename(top), commit: c.sha },
      tags: ['from-git'],
    };
    fs.writeFileSync(path.join(dir, 'task.json'), `${JSON.stringify(spec, null, 2)}\n`);
    return { id, dir, spec };
  });
}
