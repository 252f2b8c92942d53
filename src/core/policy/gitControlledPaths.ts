/**
 * Every path git runs code from or takes orders from for one workspace folder, beyond `.git` by
 * name: a `.git` FILE (`gitdir: .repo`) makes `.repo` the git dir; a worktree's git dir names a
 * `commondir`; `.git/config` can `[include] path = …` (or `[includeIf …] path = …`) further config
 * files, each of which can include more and set `core.hooksPath`. A hook or a `core.fsmonitor`
 * written into any of them runs on the next git command, so each is as protected as `.git` itself.
 * `includeIf` conditions are not evaluated: whatever git might read counts.
 *
 * The walk is written once as a generator that asks for file texts, and driven synchronously (the
 * sandbox, right before a command) or asynchronously (the tools, through WorkspaceFs).
 */
import * as path from 'node:path';

export interface GitControlledPath {
  /** Absolute, as git names it (not resolved through links). */
  path: string;
  kind: 'git-dir' | 'config' | 'hooks';
  why: string;
}

/** Includes nest; a loop or a long chain stops here (git itself stops at 10 levels). */
const MAX_CONFIGS = 20;

type Walk = Generator<string, GitControlledPath[], string | undefined>;

function* walk(root: string, home: string): Walk {
  const out: GitControlledPath[] = [];
  const dotGit = path.join(root, '.git');
  const linked = /^gitdir:\s*(.+?)\s*$/m.exec((yield dotGit) ?? '');
  const gitDir = linked ? path.resolve(root, linked[1]!) : dotGit;
  out.push({ path: gitDir, kind: 'git-dir', why: linked ? `git uses ${linked[1]} as the git dir (the .git file names it): hooks and config there run as code` : 'git runs hooks and obeys config from .git' });
  const common = (yield path.join(gitDir, 'commondir'))?.trim();
  const dirs = [gitDir];
  if (common) {
    const c = path.resolve(gitDir, common);
    out.push({ path: c, kind: 'git-dir', why: 'git shares hooks and config from this worktree\'s common git dir' });
    dirs.push(c);
  }
  const queue = dirs.map((d) => path.join(d, 'config'));
  const seen = new Set<string>();
  while (queue.length && seen.size < MAX_CONFIGS) {
    const cfg = queue.shift()!;
    if (seen.has(cfg)) continue;
    seen.add(cfg);
    const text = yield cfg;
    if (text === undefined) continue;
    for (const e of configEntries(text)) {
      if ((e.section === 'include' || e.section === 'includeif') && e.key === 'path' && e.value) {
        const inc = expand(e.value, path.dirname(cfg), home);
        out.push({ path: inc, kind: 'config', why: `git reads config from it (included by ${path.relative(root, cfg) || cfg}): core.fsmonitor, hooksPath and aliases there run as code` });
        queue.push(inc);
      } else if (e.section === 'core' && e.key === 'hookspath' && e.value) {
        out.push({ path: expand(e.value, root, home), kind: 'hooks', why: 'git runs hooks from the folder core.hooksPath names' });
      }
    }
  }
  return out;
}

function expand(v: string, base: string, home: string): string {
  return path.resolve(base, v === '~' ? home : v.startsWith('~/') ? path.join(home, v.slice(2)) : v);
}

/** `section.key = value` entries of a git config text (section and key lower-cased, subsection dropped). */
export function configEntries(text: string): { section: string; key: string; value: string }[] {
  const out: { section: string; key: string; value: string }[] = [];
  let section = '';
  for (const raw of text.split(/\r?\n/)) {
    let line = raw.trim();
    const head = /^\[\s*([^\]\s"]+)(?:\s+"[^"]*")?\s*\]/.exec(line);
    if (head) {
      section = head[1]!.toLowerCase().split('.')[0]!;
      line = line.slice(head[0].length).trim();
      if (!line) continue;
    }
    const kv = /^([A-Za-z][\w-]*)\s*(?:=\s*(.*))?$/.exec(line);
    if (!kv || !section) continue;
    out.push({ section, key: kv[1]!.toLowerCase(), value: unquote(kv[2] ?? '') });
  }
  return out;
}

/** A value with its comment removed and quotes undone (`"a b" ; c` → `a b`). */
function unquote(v: string): string {
  let out = '';
  let quoted = false;
  for (let i = 0; i < v.length; i++) {
    const ch = v[i]!;
    if (ch === '\\' && i + 1 < v.length) out += v[++i];
    else if (ch === '"') quoted = !quoted;
    else if ((ch === ';' || ch === '#') && !quoted) break;
    else out += ch;
  }
  return out.trim();
}

export function gitControlledPathsSync(root: string, read: (p: string) => string | undefined, home = process.env.HOME ?? '/'): GitControlledPath[] {
  const w = walk(root, home);
  let step = w.next();
  while (!step.done) step = w.next(read(step.value));
  return step.value;
}

export async function gitControlledPaths(root: string, read: (p: string) => Promise<string | undefined>, home = process.env.HOME ?? '/'): Promise<GitControlledPath[]> {
  const w = walk(root, home);
  let step = w.next();
  while (!step.done) step = w.next(await read(step.value));
  return step.value;
}
