/**
 * The fresh copy of a task's repository the agent works in: a folder of its own under the temp
 * folder, made from the task's snapshot folder or from a commit of a git repository (its files only:
 * never the repository's history, which holds the change the task asks for), then committed as the
 * start of a repository of its own, so the agent sees a clean `git status` and plan steps can run in
 * git worktrees as in a user's project. Nothing of the task folder but the snapshot is copied.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { EvalTask } from '../../../core/eval/evalTask';
import { git, gitOrThrow } from './git';

/** Where copies go: `$TANDEM_EVAL_WORK_DIR`, else the temp folder. */
export function makeRunFolder(env: NodeJS.ProcessEnv): string {
  const base = env.TANDEM_EVAL_WORK_DIR || os.tmpdir();
  fs.mkdirSync(base, { recursive: true });
  return fs.mkdtempSync(path.join(base, 'tandem-eval-'));
}

/** The task's source repository, when it is a git ref (to hide it from the agent's commands too). */
export function gitSourceOf(task: EvalTask): string | undefined {
  return typeof task.spec.repo === 'string' ? undefined : path.resolve(task.dir, task.spec.repo.git);
}

export function copyTaskRepository(task: EvalTask, into: string): void {
  fs.mkdirSync(into, { recursive: true });
  const repo = task.spec.repo;
  if (typeof repo === 'string') {
    const from = path.resolve(task.dir, repo);
    if (!fs.existsSync(from) || !fs.statSync(from).isDirectory()) throw new Error(`the task's repository folder ${repo} does not exist`);
    fs.cpSync(from, into, { recursive: true, verbatimSymlinks: true, filter: (src) => path.basename(src) !== '.git' });
  } else {
    const source = path.resolve(task.dir, repo.git);
    const tar = path.join(path.dirname(into), `${path.basename(into)}.tar`);
    gitOrThrow(source, ['archive', '--format=tar', '-o', tar, repo.ref]);
    try {
      gitOrThrow(into, ['init', '-q']);
      // `git archive` wrote the tree; tar is the portable way to lay it out.
      const r = spawnSync('tar', ['-xf', tar, '-C', into], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`tar failed: ${r.stderr}`);
    } finally {
      fs.rmSync(tar, { force: true });
    }
  }
  if (!fs.existsSync(path.join(into, '.git'))) gitOrThrow(into, ['init', '-q']);
  gitOrThrow(into, ['add', '-A']);
  gitOrThrow(into, ['commit', '-q', '--allow-empty', '--no-verify', '-m', 'The task starts here']);
}

/** Files the agent changed, created or deleted since the copy was made (git's view, untracked included). */
export function changedFiles(copy: string): string[] {
  const r = git(copy, ['status', '--porcelain', '-z', '--untracked-files=all']);
  if (!r.ok) return [];
  return r.stdout.split('\0').filter(Boolean).map((l) => l.slice(3)).filter((f) => f && !/^[RC]/.test(f));
}

/** Lays the task's verifier files over the copy (the commit's tests win over what the agent wrote there). */
export function layVerifierFiles(task: EvalTask, copy: string): void {
  const files = task.spec.verify.files;
  if (!files) return;
  const from = path.resolve(task.dir, files);
  if (!fs.existsSync(from)) throw new Error(`the task's verify folder ${files} does not exist`);
  fs.cpSync(from, copy, { recursive: true, force: true, verbatimSymlinks: true });
}
