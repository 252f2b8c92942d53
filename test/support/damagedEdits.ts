/**
 * Real single-file commits of other people's projects (test/fixtures/foreign-commits/<project>/)
 * made into the tool calls a model sends for them, damaged the way models damage them, and replayed
 * through the built CLI against the scripted server: the model reads the file, then edits it, as a
 * new user's model would. Each outcome is landed (the file is exactly the commit's change), refused
 * (an error result, the file untouched) or wrong (anything else). Used by the unit suite
 * (test/unit/cli/foreignEdits.test.ts) and the edits bench.
 *
 * The damage kinds (each hunk of each commit, at most six hunks a commit):
 * - the exact change as apply_patch, with stale line numbers, with miscounted hunk lengths, and
 *   with a bare `@@ @@` header; and as edit_file (its old text widened until it names one place);
 * - old text with a run of middle lines replaced by one marker line, the marker in any language's
 *   comment form (`//`, `#`, `/* … *\/`) and indented four spaces whatever the file;
 * - every line one level too shallow (two spaces, or a tab in a tab-indented file), lines at
 *   column 0 untouched;
 * - new text that keeps the run of unchanged lines before the change as one marker line.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { structuredPatch } from 'diff';
import { checkSyntax } from '../../src/core/syntax/syntaxGuard';
import { runCliProcess } from './cliRunner';
import { ScriptedServer } from './scriptedServer';
import { calls, tc, text } from './scriptSteps';

export interface Commit { source: string; commit: string; path: string; pre: string; post: string }

export const DAMAGE_KINDS = [
  'apply_patch, exact',
  'apply_patch, stale line numbers',
  'apply_patch, miscounted hunk',
  'apply_patch, bare @@ @@',
  'edit_file, exact',
  'old text elided (marker of any comment form, 4 spaces)',
  'one level too shallow (column 0 untouched)',
  'new text keeps leading lines as a marker',
] as const;
export type DamageKind = (typeof DAMAGE_KINDS)[number];
/** The kinds that need a repair (the others are the exact change, written as models write it). */
export const DAMAGED: ReadonlySet<DamageKind> = new Set(DAMAGE_KINDS.slice(5));

/** `line`, `count`: where in the file the change is (the lines the model reads first). */
export interface DamagedCall { kind: DamageKind; tool: 'edit_file' | 'apply_patch'; args: Record<string, unknown>; expect: string; line: number; count: number }
export type Outcome = 'landed' | 'refused' | 'wrong';
export interface Tally { landed: number; refused: number; wrong: number }

const FIXTURES = path.join(__dirname, '..', '..', '..', 'test', 'fixtures', 'foreign-commits');

/** The projects under test/fixtures/foreign-commits, each with its commits. */
export function foreignCorpora(root = FIXTURES): Map<string, Commit[]> {
  const out = new Map<string, Commit[]>();
  for (const name of fs.readdirSync(root).sort()) {
    const dir = path.join(root, name);
    if (!fs.statSync(dir).isDirectory()) continue;
    out.set(name, fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as Commit));
  }
  return out;
}

/**
 * This repository's own corpora by project (click, cobra, tandem): the real single-file commits of
 * bench/fixtures/edits and test/fixtures/lazy-commits, which the edits bench and the lazy-edit
 * corpus replay too.
 */
export function ownCorpora(repo = path.join(FIXTURES, '..', '..', '..')): Map<string, Commit[]> {
  const out = new Map<string, Commit[]>();
  for (const dir of [path.join(repo, 'bench', 'fixtures', 'edits'), path.join(repo, 'test', 'fixtures', 'lazy-commits')]) {
    for (const f of fs.readdirSync(dir).filter((x) => x.endsWith('.json')).sort()) {
      const c = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as Commit;
      out.set(c.source, [...(out.get(c.source) ?? []), c]);
    }
  }
  return out;
}

interface Region { oldStart: number; oldL: string[]; newL: string[]; body: string[] }

function regions(pre: string, post: string, context: number): Region[] {
  return structuredPatch('a', 'b', pre, post, '', '', { context }).hunks
    .filter((h) => !h.lines.some((l) => l.startsWith('\\')))
    .map((h) => {
      const oldL: string[] = [];
      const newL: string[] = [];
      for (const l of h.lines) {
        if (l[0] === ' ' || l[0] === '-') oldL.push(l.slice(1));
        if (l[0] === ' ' || l[0] === '+') newL.push(l.slice(1));
      }
      return { oldStart: h.oldStart, oldL, newL, body: h.lines };
    });
}

/**
 * The region with more unchanged lines on each side until its old lines occur once in the file
 * (a model copies enough of a file of repeated blocks to name one; three lines of context often
 * name two). At most ten more each side.
 */
function unique(pre: string, r: Region): Region {
  const lines = pre.split('\n');
  const once = (x: Region) => {
    const text = x.oldL.join('\n');
    const at = pre.indexOf(text);
    return at !== -1 && pre.indexOf(text, at + 1) === -1;
  };
  let x = r;
  for (let k = 0; k < 10 && !once(x); k++) {
    const start = x.oldStart - 1;
    const end = start + x.oldL.length;
    const before = start > 0 ? [lines[start - 1]!] : [];
    const after = end < lines.length - 1 ? [lines[end]!] : [];
    if (!before.length && !after.length) break;
    x = {
      oldStart: x.oldStart - before.length,
      oldL: [...before, ...x.oldL, ...after],
      newL: [...before, ...x.newL, ...after],
      body: [...before.map((l) => ` ${l}`), ...x.body, ...after.map((l) => ` ${l}`)],
    };
  }
  return x;
}

function expectedAfter(pre: string, r: Region): string {
  const lines = pre.split('\n');
  lines.splice(r.oldStart - 1, r.oldL.length, ...r.newL);
  return lines.join('\n');
}

const WORDINGS = ['... existing code ...', '...', '... rest unchanged ...', 'existing code here', '... keep existing code ...'];
const indentOf = (l: string) => /^[ \t]*/.exec(l)![0];
const isPython = (file: string) => /\.py$/.test(file);

/** Old text with its longest run of ≥ 3 unchanged middle lines replaced by one marker line (any comment form, 4 spaces). */
function elideOld(r: Region, k: number): string[] | undefined {
  let best: [number, number] | undefined;
  let i = 0;
  let oldIndex = 0;
  // A run is unchanged lines with nothing inserted among them (new lines end it, as a removed one does).
  const marks: { oldIndex: number; same: boolean }[] = [];
  for (const l of r.body) {
    if (l[0] === '+') {
      if (marks.length) marks[marks.length - 1]!.same = false;
      continue;
    }
    marks.push({ oldIndex: oldIndex++, same: l[0] === ' ' });
  }
  while (i < marks.length) {
    if (!marks[i]!.same) { i++; continue; }
    let j = i;
    while (j < marks.length && marks[j]!.same) j++;
    // Keep a written, non-blank line on each side of the marker inside the run.
    let a = i + 1;
    let b = j - 1;
    while (a < b && r.oldL[a - 1]!.trim() === '') a++;
    while (b > a && r.oldL[b]!.trim() === '') b--;
    if (i > 0 || a > i) {
      if (b - a >= 3 && (!best || b - a > best[1] - best[0])) best = [a, b];
    }
    i = j;
  }
  if (!best) return undefined;
  const form = k % 3;
  const w = WORDINGS[k % WORDINGS.length]!;
  const marker = `    ${form === 0 ? `// ${w}` : form === 1 ? `# ${w}` : `/* ${w} */`}`;
  return [...r.oldL.slice(0, best[0]), marker, ...r.oldL.slice(best[1])];
}

/** Every indented line one level shallower: a tab in a tab-indented file, else two spaces. */
function shallower(lines: string[], tabs: boolean): string[] {
  return lines.map((l) => (tabs ? l.replace(/^\t/, '') : l.replace(/^ {2}/, '')));
}

/**
 * New text with the unchanged lines before the first change written as one marker line (the
 * file's own comment form), keeping the last of them written out to show where the change goes.
 */
function leadingMarker(r: Region, file: string, k: number): string[] | undefined {
  let lead = 0;
  while (lead < r.body.length && r.body[lead]![0] === ' ') lead++;
  // The line kept is one the model can point at: the last unchanged one that old_text has once.
  const once = (l: string) => r.oldL.filter((x) => x.trim() === l.trim()).length === 1;
  let anchor = lead - 1;
  while (anchor >= 0 && (r.body[anchor]!.trim() === '' || !once(r.body[anchor]!.slice(1)))) anchor--;
  const elided = r.body.slice(0, Math.max(0, anchor)).map((l) => l.slice(1));
  if (elided.filter((l) => l.trim() !== '').length < 2) return undefined;
  const first = elided.find((l) => l.trim() !== '')!;
  const w = WORDINGS[k % WORDINGS.length]!;
  const marker = `${indentOf(first)}${isPython(file) ? `# ${w}` : `// ${w}`}`;
  return [marker, ...r.newL.slice(anchor)];
}

/**
 * The damaged calls for one commit, the file named `file` in the workspace. A hunk that breaks the
 * file's syntax when applied alone (a commit's hunks can depend on each other) is left out: the
 * syntax guard rightly refuses it however it is sent.
 */
export async function damagedCalls(c: Commit, file: string): Promise<DamagedCall[]> {
  const out: DamagedCall[] = [];
  const tabs = /^\t/m.test(c.pre) && !/^ {2,}\S/m.test(c.pre);
  const edit = (kind: DamageKind, r: Region, o: string[], n: string[]): DamagedCall => ({
    kind, tool: 'edit_file', args: { path: file, edits: [{ old_text: o.join('\n'), new_text: n.join('\n') }] }, expect: expectedAfter(c.pre, r), line: r.oldStart, count: r.oldL.length,
  });
  const patch = (kind: DamageKind, r: Region, header: string): DamagedCall => ({
    kind, tool: 'apply_patch', args: { patch: [`--- a/${file}`, `+++ b/${file}`, header, ...r.body, ''].join('\n') }, expect: expectedAfter(c.pre, r), line: r.oldStart, count: r.oldL.length,
  });
  const standsAlone = async (rs: Region[]) => {
    const ok: Region[] = [];
    for (const r of rs) {
      const v = await checkSyntax(file, c.pre, expectedAfter(c.pre, r));
      if (!v.checked || v.ok) ok.push(r);
    }
    return ok;
  };
  // A model's text never starts or ends with the blank lines it changes (edit_file trims them); only exact calls carry those.
  const lead = (ls: string[]) => ls.findIndex((l) => l.trim() !== '');
  const trail = (ls: string[]) => [...ls].reverse().findIndex((l) => l.trim() !== '');
  const blankEdges = (r: Region) => lead(r.oldL) !== lead(r.newL) || trail(r.oldL) !== trail(r.newL);
  let k = 0;
  for (const r of await standsAlone(regions(c.pre, c.post, 3).slice(0, 6))) {
    out.push(patch('apply_patch, exact', r, `@@ -${r.oldStart},${r.oldL.length} +${r.oldStart},${r.newL.length} @@`));
    out.push(patch('apply_patch, stale line numbers', r, `@@ -${r.oldStart + 7},${r.oldL.length} +${r.oldStart + 7},${r.newL.length} @@`));
    out.push(patch('apply_patch, miscounted hunk', r, `@@ -${r.oldStart},${r.oldL.length + 2} +${r.oldStart},${Math.max(1, r.newL.length - 1)} @@`));
    out.push(patch('apply_patch, bare @@ @@', r, '@@ @@'));
    const u = unique(c.pre, r);
    out.push(edit('edit_file, exact', u, u.oldL, u.newL));
    if (blankEdges(u)) continue;
    const o = shallower(u.oldL, tabs);
    if (o.join('\n') !== u.oldL.join('\n')) out.push(edit('one level too shallow (column 0 untouched)', u, o, shallower(u.newL, tabs)));
  }
  for (const r of await standsAlone(regions(c.pre, c.post, 6).slice(0, 6))) {
    if (blankEdges(r)) continue;
    const o = elideOld(r, k);
    if (o) out.push(edit('old text elided (marker of any comment form, 4 spaces)', r, o, r.newL));
    const n = leadingMarker(r, file, k);
    if (n) out.push(edit('new text keeps leading lines as a marker', r, r.oldL, n));
    k++;
  }
  return out;
}

export interface Replayed { call: DamagedCall; outcome: Outcome; result: string }

/**
 * The commit's damaged calls through the built CLI, in one run: each call on its own copy of the
 * file (folder cN/), its lines around the change read first, then edited. A read between edits also keeps the run going past
 * refusals (three failed calls in a row stop a turn).
 */
export async function replayThroughCli(cli: string, c: Commit, damaged: (file: string) => Promise<DamagedCall[]>): Promise<Replayed[]> {
  // A tool's configuration file can be one the CLI never lets blanket approval change (pre-commit's
  // runs the hooks it lists): here edits are measured, so a dotfile is written without its dot
  // (its language, told by its extension, is the same).
  const base = c.path.split('/').pop()!.replace(/^\./, '');
  const list = await damaged(base);
  if (list.length === 0) return [];
  const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-foreign-')));
  const steps = list.flatMap((x, i) => {
    const rel = `c${i}/${base}`;
    fs.mkdirSync(path.join(ws, `c${i}`));
    fs.writeFileSync(path.join(ws, rel), c.pre);
    const args = x.tool === 'apply_patch'
      ? { patch: String(x.args.patch).replace(/^(--- a\/|\+\+\+ b\/)/gm, `$1c${i}/`) }
      : { ...x.args, path: rel };
    // The model reads the lines around the change (the whole file each time would make one run's requests huge).
    return [tc('read_file', { path: rel, offset: Math.max(1, x.line - 5), limit: x.count + 10 }), tc(x.tool, args)];
  });
  const server = await ScriptedServer.start([calls(...steps), text('done')]);
  try {
    const run = await runCliProcess(cli, ['run', '--workspace', ws, '--base-url', server.url, '--role', 'actor', '--approve', 'all', `apply the change to ${base}`], {
      // The CLI's own retries stay on: a run's many calls can outlast the server's keep-alive, and a
      // request sent on a socket it just closed is reset (a retry sends it again; no step is used twice).
      env: { TANDEM_API_KEY: 'sk-foreign-edits', TANDEM_MAX_TOOL_CALLS: '100000', TANDEM_CONTEXT_WINDOW: '100000000' },
      timeoutMs: 120_000,
    });
    if (run.code !== 0) throw new Error(`the CLI failed on ${c.source} ${c.commit.slice(0, 8)}: ${run.stderr.slice(0, 2000)}`);
    const last = server.chatRequests().at(-1);
    const results = (last?.messages ?? []).filter((m: { role: string }) => m.role === 'tool').map((m: { content: unknown }) => String(m.content));
    // Each call's result is the second of its pair (the read comes first).
    return list.map((call, i) => {
      const after = fs.readFileSync(path.join(ws, `c${i}`, base), 'utf8');
      const result = results[2 * i + 1] ?? '';
      // A refusal leaves the file as it was (a call that changes nothing is an error too).
      const outcome: Outcome = after === call.expect ? 'landed' : after === c.pre ? 'refused' : 'wrong';
      return { call, outcome, result };
    });
  } finally {
    await server.close();
    fs.rmSync(ws, { recursive: true, force: true });
  }
}

export function tallyByKind(rows: readonly Replayed[]): Map<DamageKind, Tally> {
  const t = new Map<DamageKind, Tally>(DAMAGE_KINDS.map((k) => [k, { landed: 0, refused: 0, wrong: 0 }]));
  for (const r of rows) t.get(r.call.kind)![r.outcome]++;
  return t;
}
