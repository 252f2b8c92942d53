// Builds the built-in eval suite (eval-suite/) from real commits of open-source projects, as listed
// in eval-suite/sources.json: for each commit, a task folder with
//   repo/       the commit's parent, only the paths the project's `keep` list names (small on disk);
//   verify/     the test files as the commit left them (+ the shared test shim, when the project uses one);
//   reference/  the code files as the commit left them;
//   task.json   the commit's message as the prompt, the project's verifier command, the source and licence.
// Each task is checked before it is written: on the parent the commit's tests must fail, and with the
// reference change they must pass (run here, outside any sandbox: this is the maintainer's machine).
// The rules for test files are those of `tandem eval --from-git` (src/cli/eval/fromGit.ts).
//
//   node scripts/build-eval-suite.mjs --mirror DIR      bare clones at DIR/<owner>+<name>/repo
//   node scripts/build-eval-suite.mjs --git cookie=PATH  a clone per project (repeatable)
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const suite = path.join(root, 'eval-suite');
const { values } = parseArgs({ options: { mirror: { type: 'string' }, git: { type: 'string', multiple: true }, only: { type: 'string' } } });
const sources = JSON.parse(fs.readFileSync(path.join(suite, 'sources.json'), 'utf8'));
const clones = Object.fromEntries((values.git ?? []).map((g) => g.split('=', 2)));

function repoOf(project) {
  if (clones[project]) return path.resolve(clones[project]);
  const url = new URL(sources.projects[project].repository);
  const [owner, name] = url.pathname.slice(1).split('/');
  if (!values.mirror) throw new Error(`no clone of ${project}: pass --git ${project}=PATH or --mirror DIR`);
  return path.join(values.mirror, `${owner}+${name}`, 'repo');
}

function git(repo, args, raw = false) {
  const r = spawnSync('git', args, { cwd: repo, maxBuffer: 64 * 1024 * 1024, ...(raw ? {} : { encoding: 'utf8' }) });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

const isTestFile = (file) => {
  const base = path.posix.basename(file);
  return /(^|\/)(tests?|__tests__|spec|specs)\//.test(file) || /[._-](test|spec)\.[A-Za-z0-9]+$/.test(base) || /^test_.*\.py$/.test(base) || /_test\.[A-Za-z0-9]+$/.test(base);
};
const kept = (keep, file) => keep.some((k) => (k.endsWith('/') ? file.startsWith(k) : file === k));

function writeAt(repo, sha, files, into) {
  for (const f of files) {
    const to = path.join(into, f);
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.writeFileSync(to, git(repo, ['show', `${sha}:${f}`], true));
  }
}

/** The commit message as a user's request: without PR numbers and issue-closing lines. */
function promptOf(message) {
  return message
    .split('\n')
    .filter((l) => !/^\s*(closes|fixes|fixed|resolves|close|fix)\s+#\d+/i.test(l) && !/^\s*(co-authored-by|signed-off-by):/i.test(l))
    .join('\n')
    .replace(/\s*\(#\d+\)$/m, '')
    .trim();
}

/** At most 40 characters, cut between words. */
const slug = (s) => {
  const full = s.toLowerCase().replace(/[`'"]/g, '').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
  return full.length <= 40 ? full : full.slice(0, 41).replace(/-[^-]*$/, '');
};
const LANG = { javascript: 'js', python: 'py', typescript: 'ts' };

// What `tandem eval` gives every verifier (src/host/node/eval/typeScriptRunner.ts): the path of
// Tandem's own esbuild, with which a TypeScript task's verifier runs its .ts files.
const verifierEnv = { ...process.env, TANDEM_EVAL_ESBUILD: createRequire(import.meta.url).resolve('esbuild') };

function run(cmd, cwd) {
  const r = spawnSync('bash', ['-c', cmd], { cwd, encoding: 'utf8', timeout: 120_000, env: verifierEnv });
  return { ok: r.status === 0, out: `${r.stdout}${r.stderr}`.trim().split('\n').slice(-8).join('\n') };
}

function copyDir(from, to) {
  fs.cpSync(from, to, { recursive: true });
}

const rows = [];
let failed = 0;
for (const t of sources.tasks) {
  const p = sources.projects[t.project];
  const repo = repoOf(t.project);
  const sha = git(repo, ['rev-parse', `${t.commit}^{commit}`]).trim();
  if (values.only && !sha.startsWith(values.only)) continue;
  const parent = git(repo, ['rev-parse', `${sha}^`]).trim();
  const message = git(repo, ['log', '-1', '--format=%B', sha]).trim();
  const changes = git(repo, ['diff-tree', '--no-commit-id', '-r', '--name-status', '--no-renames', sha]).split('\n').filter(Boolean).map((l) => l.split('\t'));
  const tests = changes.filter(([s, f]) => s !== 'D' && isTestFile(f) && kept(p.keep, f)).map(([, f]) => f);
  const code = changes.filter(([s, f]) => s !== 'D' && !isTestFile(f) && kept(p.keep, f) && !/\.md$/i.test(f)).map(([, f]) => f);
  const id = `${LANG[p.language]}/${p.name ?? t.project}-${t.id ?? slug(message.split('\n')[0].replace(/\s*\(#\d+\)$/, ''))}`;
  const dir = path.join(suite, id);
  fs.rmSync(dir, { recursive: true, force: true });
  const files = git(repo, ['ls-tree', '-r', '--name-only', parent]).split('\n').filter((f) => f && kept(p.keep, f));
  writeAt(repo, parent, files, path.join(dir, 'repo'));
  writeAt(repo, sha, tests, path.join(dir, 'verify'));
  for (const shim of p.shims ?? []) {
    fs.mkdirSync(path.join(dir, 'verify', '.tandem-eval'), { recursive: true });
    fs.copyFileSync(path.join(suite, '.shared', shim), path.join(dir, 'verify', '.tandem-eval', shim));
  }
  writeAt(repo, sha, code, path.join(dir, 'reference'));
  const spec = {
    format: 'tandem-eval-task/1',
    // A task may word its prompt itself where the message is a squashed pull request's bullet list;
    // sources.json says what it was written from (`promptFrom`), and the README's table shows it.
    prompt: t.prompt ?? promptOf(message),
    repo: 'repo',
    setup: [],
    verify: { command: p.verify, files: 'verify', timeoutSeconds: 120, ...(p.typescript ? { typescript: true } : {}) },
    reference: 'reference',
    limits: { minutes: 15, toolCalls: 60 },
    source: { project: t.project, url: `${p.repository}/commit/${sha}`, commit: sha, license: p.license },
    language: p.language,
    // Several code files to change: a task where a plan earns its keep.
    tags: [...(t.tags ?? []), ...(code.length > 1 ? ['plan-worthy'] : [])],
  };
  fs.writeFileSync(path.join(dir, 'task.json'), `${JSON.stringify(spec, null, 2)}\n`);
  // The check: the commit's tests fail on the parent and pass with the reference change.
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'eval-suite-check-'));
  copyDir(path.join(dir, 'repo'), tmp);
  copyDir(path.join(dir, 'verify'), tmp);
  const before = run(p.verify, tmp);
  copyDir(path.join(dir, 'reference'), tmp);
  const after = run(p.verify, tmp);
  fs.rmSync(tmp, { recursive: true, force: true });
  const ok = !before.ok && after.ok;
  if (!ok) {
    failed++;
    fs.rmSync(dir, { recursive: true, force: true });
    console.error(`✗ ${id} (${sha.slice(0, 10)}): ${before.ok ? 'the tests pass before the change' : `the tests fail with the reference:\n${after.out}`}`);
    continue;
  }
  console.log(`✓ ${id} (${sha.slice(0, 10)}): ${code.length} code file(s), ${tests.length} test file(s)`);
  // The project's licence, once, beside the suite's README.
  const license = path.join(suite, 'licenses', `${t.project}-LICENSE`);
  if (!fs.existsSync(license)) writeAt(repo, sha, ['LICENSE'], path.join(suite, 'licenses', '.tmp')), fs.renameSync(path.join(suite, 'licenses', '.tmp', 'LICENSE'), license), fs.rmSync(path.join(suite, 'licenses', '.tmp'), { recursive: true });
  rows.push(`| \`${id}\` | [${p.name ?? t.project}](${p.repository}) | [\`${sha.slice(0, 10)}\`](${p.repository}/commit/${sha}) | ${p.license} | ${p.language} | ${code.join(', ')} | ${tests.join(', ')} |${t.promptFrom ? ` prompt from ${t.promptFrom} |` : ' |'}`);
}
if (!values.only) {
  const readme = fs.readFileSync(path.join(suite, 'README.md'), 'utf8');
  const table = ['| task | project | commit | licence | language | code changed | tests (the verifier) | note |', '|---|---|---|---|---|---|---|---|', ...rows].join('\n');
  fs.writeFileSync(path.join(suite, 'README.md'), readme.replace(/<!-- tasks -->[\s\S]*<!-- \/tasks -->/, `<!-- tasks -->\n${table}\n<!-- /tasks -->`));
}
console.log(`${rows.length} tasks written, ${failed} refused`);
process.exitCode = failed ? 1 : 0;
