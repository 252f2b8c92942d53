/**
 * The tasks of a suite: every folder under the suite folder that holds a `task.json`, named by its
 * path under the suite (`python/slugify-unicode`), filtered by `--tasks` globs, in name order. A
 * task.json that does not validate stops the run before anything starts, naming the file and what
 * is wrong with it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseEvalTask, type EvalTask } from '../../../core/eval/evalTask';

/** `*` any characters but `/`, `**` any characters, `?` one character; the whole id must match. */
export function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      re += '.*';
      i++;
      if (glob[i + 1] === '/') i++;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

export function findTaskFolders(suite: string): string[] {
  const out: string[] = [];
  const walk = (dir: string, depth: number) => {
    if (fs.existsSync(path.join(dir, 'task.json'))) {
      out.push(dir);
      return;
    }
    if (depth > 4) return;
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory() && !e.name.startsWith('.') && e.name !== 'node_modules') walk(path.join(dir, e.name), depth + 1);
    }
  };
  walk(suite, 0);
  return out.sort();
}

export function loadTask(dir: string, id: string): EvalTask | { error: string } {
  const file = path.join(dir, 'task.json');
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    return { error: `${file}: ${(e as Error).message}` };
  }
  const r = parseEvalTask(text);
  return 'error' in r ? { error: `${file}: ${r.error}` } : { id, dir, spec: r.spec };
}

export function loadSuite(suite: string, globs: readonly string[]): EvalTask[] | { error: string } {
  if (!fs.existsSync(suite) || !fs.statSync(suite).isDirectory()) return { error: `the suite folder ${suite} does not exist` };
  const patterns = globs.map(globToRegExp);
  const tasks: EvalTask[] = [];
  for (const dir of findTaskFolders(suite)) {
    const id = path.relative(suite, dir).split(path.sep).join('/') || path.basename(dir);
    if (patterns.length && !patterns.some((p) => p.test(id))) continue;
    const t = loadTask(dir, id);
    if ('error' in t) return t;
    tasks.push(t);
  }
  if (!tasks.length) return { error: globs.length ? `no task in ${suite} matches ${globs.join(', ')}` : `no task.json under ${suite}` };
  return tasks;
}
