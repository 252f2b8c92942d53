/**
 * One workspace's facts: what is stored, what still holds, and every way a fact comes or goes —
 * learned from a Reviewer's verdict, added or edited by the user, forgotten, cleared. A fact is
 * only ever kept with a citation that a read of the workspace would allow and that exists now (the
 * lines are hashed as they are), its text masked for the API key and flattened to one line. The
 * store may hold other workspaces' facts (a shared `--history-dir`): this book sees only its own.
 * Beside them, the user's global facts (their own store, outside every workspace): sent and checked
 * with the workspace's, and only ever added by the user, never citing a file (lines belong to one
 * workspace, and a global fact is sent in all of them).
 */
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { FACT_TEXT_MAX, citationLabel, type Fact, type FactCitation, type FactSource, type FactView, type ReviewLearn } from '../../protocol';
import type { WorkspaceFs } from '../ports/ports';
import { maskSecret } from '../secrets/secretMask';
import { IgnoreMatcher } from '../policy/ignorePolicy';
import { citablePath, folderOf, folderRoot, inFolder } from './citablePath';
import { citedLines, evidenceHash, lineCount } from './citedLines';
import { checkFact } from './factCheck';
import type { FactStore } from './factStore';
import type { FactSettings } from './factSettings';

/** A citation as given: a workspace path and 1-based inclusive lines. */
export interface CiteInput {
  path: string;
  start: number;
  end: number;
}

/** A citation longer than this proves nothing in particular. */
export const MAX_CITED_LINES = 400;

/** What a fact the user adds rests on: lines of workspace files, or a command and the output that showed it. */
export type Evidence = { lines: readonly CiteInput[] } | { command: string; output: string };

export type FactScope = 'workspace' | 'global';

export const GLOBAL_CITES_NO_FILE = 'a global fact cannot cite files: lines belong to one workspace, and a global fact is sent in every workspace (add it to this workspace instead, or without a citation)';

export type FactResult = { ok: true; fact: Fact; cited: string; updated?: boolean } | { ok: false; why: string; cited: string };

export interface FactBookOptions {
  store: FactStore;
  /** The user's facts for every workspace (the editor's global storage, the CLI's data folder); none: no global facts. */
  globalStore?: FactStore;
  fs: WorkspaceFs;
  /** This workspace's key (its history folder's name): stored with each fact. */
  workspace: string;
  settings(): FactSettings;
  /** The API key, masked out of every fact's text. */
  secret?(): string | undefined;
  now?(): number;
  /** false: facts are read and sent but none learned (a run that saves nothing). */
  learning?: boolean;
}

const sameText = (a: string, b: string) => a.toLowerCase().replace(/\s+/g, ' ').trim() === b.toLowerCase().replace(/\s+/g, ' ').trim();

export class FactBook {
  constructor(private readonly o: FactBookOptions) {}

  private now(): number {
    return (this.o.now ?? Date.now)();
  }

  /** The folder a cited file is in: the one it names (several folders open), else the first. */
  rootOf(folder: string | undefined): string | undefined {
    return folder ? folderRoot(this.o.fs.roots, folder) : this.o.fs.roots[0];
  }

  get settings(): FactSettings {
    return this.o.settings();
  }

  /** Text as a fact may hold it: the API key masked, one line. */
  mask(text: string): string {
    return maskSecret(text, this.o.secret?.()).replace(/[\r\n\u2028\u2029]+/g, ' ').replace(/\s+/g, ' ').trim();
  }

  /** A read problem of the store (a corrupt file kept aside), once. */
  takeProblem(): string | undefined {
    return this.o.store.takeProblem();
  }

  /** Whether global facts can be kept here. */
  get hasGlobal(): boolean {
    return this.o.globalStore !== undefined;
  }

  private globalFacts(): Fact[] {
    // Only facts marked global: a history folder given as the data folder itself shares the file, and a workspace's facts never leak out of it.
    return (this.o.globalStore?.read() ?? []).filter((f) => f.global);
  }

  /** This workspace's facts and the global ones (or one of the two), newest first, without checking them. */
  facts(scope: FactScope | 'all' = 'all'): Fact[] {
    const mine = scope === 'global' ? [] : this.o.store.read().filter((f) => f.workspace === this.o.workspace && !f.global);
    const global = scope === 'workspace' ? [] : this.globalFacts();
    return [...mine, ...global].sort((a, b) => b.created - a.created);
  }

  /** The facts (this workspace's and the global ones, or one of the two), each checked against the code now. */
  async list(scope: FactScope | 'all' = 'all'): Promise<FactView[]> {
    const matcher = new IgnoreMatcher(this.o.fs);
    const now = this.now();
    const out: FactView[] = [];
    for (const fact of this.facts(scope)) {
      const stale = await checkFact(fact, this.o.fs, now, this.settings.maxAgeDays, matcher);
      out.push({ fact, cited: citationLabel(fact.citation), ...(stale ? { stale } : {}) });
    }
    return out;
  }

  /** What may be sent now (fresh) and what may not (stale, with why). Nothing at all while facts are off. */
  async usable(): Promise<{ fresh: Fact[]; stale: FactView[] }> {
    if (!this.settings.enabled) return { fresh: [], stale: [] };
    const all = await this.list();
    return { fresh: all.filter((v) => !v.stale).map((v) => v.fact), stale: all.filter((v) => v.stale) };
  }

  /**
   * The user's own fact (the palette, a chat message, the Facts view, `tandem facts add`), with or
   * without evidence; global only when the user says so, and then citing no file.
   */
  async add(text: string, evidence?: Evidence, o: { scope?: FactScope; source?: FactSource } = {}): Promise<FactResult> {
    const source = o.source ?? { by: 'user' };
    const lines = evidence && 'lines' in evidence && evidence.lines.length ? evidence.lines : undefined;
    const asked = lines ? lines.map((c) => `${c.path}:${c.start}-${c.end}`).join(', ') : evidence && 'command' in evidence ? `\`${evidence.command}\`` : citationLabel(undefined);
    if (o.scope === 'global') {
      if (!this.o.globalStore) return { ok: false, why: 'global facts are not kept here', cited: asked };
      if (lines) return { ok: false, why: GLOBAL_CITES_NO_FILE, cited: asked };
    }
    let citation: FactCitation | undefined;
    if (lines) {
      const c = await this.citeLines(lines);
      if ('why' in c) return { ok: false, why: c.why, cited: asked };
      citation = c;
    } else if (evidence && 'command' in evidence && evidence.command.trim()) {
      citation = { kind: 'command', command: this.mask(evidence.command).slice(0, 500), output_hash: evidenceHash(evidence.output) };
    }
    return this.keep(text, citation, source, o.scope === 'global');
  }

  /**
   * A Reviewer's `learn`: kept only when it cites a file a read would allow with lines that exist, or
   * the command whose output the Reviewer was shown (`commandOutputs`: the step's check).
   */
  async learn(learn: ReviewLearn, source: FactSource, commandOutputs: ReadonlyMap<string, string>): Promise<FactResult> {
    let cited = learn.command ? `\`${learn.command}\`` : learn.file ? `${learn.file}:${learn.start_line ?? '?'}-${learn.end_line ?? learn.start_line ?? '?'}` : '(no citation)';
    if (!this.settings.enabled) return { ok: false, why: 'facts are turned off (tandem.facts.enabled)', cited };
    if (this.o.learning === false) return { ok: false, why: 'this run saves nothing (--no-history), so no fact is kept', cited };
    let citation: FactCitation;
    if (learn.file) {
      const start = learn.start_line ?? 1;
      const c = await this.citeLines([{ path: learn.file, start, end: learn.end_line ?? start }]);
      if ('why' in c) return { ok: false, why: c.why, cited };
      citation = c;
      cited = citationLabel(c);
    } else if (learn.command) {
      const output = commandOutputs.get(learn.command.trim());
      if (output === undefined) return { ok: false, why: `\`${learn.command}\` is not a command whose output the review was shown`, cited };
      citation = { kind: 'command', command: learn.command.trim(), output_hash: evidenceHash(output) };
    } else {
      return { ok: false, why: 'a learned fact needs a citation (a file and its lines, or the check command)', cited };
    }
    return this.keep(learn.text, citation, source);
  }

  private async citeLines(cites: readonly CiteInput[]): Promise<FactCitation | { why: string }> {
    const matcher = new IgnoreMatcher(this.o.fs);
    const files = [];
    for (const c of cites.slice(0, 5)) {
      if (!Number.isInteger(c.start) || !Number.isInteger(c.end) || c.start < 1 || c.end < c.start) return { why: `${c.path}: lines ${c.start}-${c.end} are not a range` };
      if (c.end - c.start + 1 > MAX_CITED_LINES) return { why: `${c.path}: cite at most ${MAX_CITED_LINES} lines, the ones that show the fact` };
      const p = await citablePath(this.o.fs, inFolder(this.o.fs.roots, c.path), matcher);
      if (!p.ok) return { why: `Refused: ${p.why}` };
      const text = await this.o.fs.readText(p.real);
      const lines = citedLines(text, c.start, c.end);
      const folder = folderOf(this.o.fs.roots, p.root);
      if (lines === undefined) return { why: `${folder ? `${folder}/` : ''}${p.rel} has ${lineCount(text)} lines; lines ${c.start}-${c.end} do not exist` };
      files.push({ ...(folder ? { folder } : {}), path: p.rel, start: c.start, end: c.end, hash: evidenceHash(lines) });
    }
    return { kind: 'lines', files };
  }

  private keep(given: string, citation: FactCitation | undefined, source: FactSource, global = false): FactResult {
    const cited = citationLabel(citation);
    const text = maskSecret(given, this.o.secret?.()).replace(/[\r\n\u2028\u2029]+/g, ' ').replace(/\s+/g, ' ').trim();
    if (!text) return { ok: false, why: 'the fact is empty', cited };
    if (text.length > FACT_TEXT_MAX) return { ok: false, why: `a fact is one short sentence (at most ${FACT_TEXT_MAX} characters; this one has ${text.length})`, cited };
    const now = this.now();
    const store = global ? this.o.globalStore! : this.o.store;
    return store.update((all) => {
      // The same sentence learned again refreshes the fact (its evidence, its age) instead of adding a copy.
      const same = all.find((f) => (global ? f.global : f.workspace === this.o.workspace && !f.global) && sameText(f.text, text));
      if (same) {
        if (citation) same.citation = citation;
        same.checked = now;
        same.source = source;
        return { ok: true, fact: same, cited, updated: true };
      }
      const fact: Fact = { id: `f${randomBytes(4).toString('hex')}`, text, ...(citation ? { citation } : {}), source, workspace: this.o.workspace, ...(global ? { global: true as const } : {}), created: now, checked: now };
      all.push(fact);
      return { ok: true, fact, cited };
    });
  }

  /**
   * This workspace's facts (never the global ones) become `after`, only if they are still exactly `before` (a consolidation
   * the user keeps, or its Undo): a fact learned or forgotten meanwhile is never lost by it.
   */
  replace(before: readonly Fact[], after: readonly Fact[]): { ok: true } | { ok: false; why: string } {
    const key = (fs: readonly Fact[]) => JSON.stringify([...fs].map((f) => [f.id, f.text, f.checked]).sort());
    return this.o.store.update((all) => {
      const mine = all.filter((f) => f.workspace === this.o.workspace && !f.global);
      if (key(mine) !== key(before)) return { ok: false as const, why: 'the facts changed since this was proposed; nothing was replaced' };
      for (const f of mine) all.splice(all.indexOf(f), 1);
      all.push(...after.map((f) => ({ ...f, workspace: this.o.workspace })));
      return { ok: true as const };
    });
  }

  /** Forget one fact (this workspace's or a global one), by id or a unique prefix of it. */
  remove(id: string): { removed: Fact } | { why: string } {
    return this.change(id, (all, fact) => {
      all.splice(all.indexOf(fact), 1);
      return { removed: fact };
    });
  }

  /** Forget every fact of this workspace (or every global one); how many went. */
  clear(scope: FactScope = 'workspace'): number {
    if (scope === 'global') {
      return this.o.globalStore?.update((all) => {
        const global = all.filter((f) => f.global);
        for (const f of global) all.splice(all.indexOf(f), 1);
        return global.length;
      }) ?? 0;
    }
    return this.o.store.update((all) => {
      const mine = all.filter((f) => f.workspace === this.o.workspace && !f.global);
      for (const f of mine) all.splice(all.indexOf(f), 1);
      return mine.length;
    });
  }

  /** The user's new wording of a fact (its citation stays). */
  edit(id: string, text: string): FactResult {
    const masked = this.mask(text);
    const r = this.change(id, (_all, fact): FactResult => {
      const cited = citationLabel(fact.citation);
      if (!masked) return { ok: false, why: 'the fact is empty', cited };
      if (masked.length > FACT_TEXT_MAX) return { ok: false, why: `a fact is at most ${FACT_TEXT_MAX} characters`, cited };
      fact.text = masked;
      return { ok: true, fact, cited };
    });
    return 'why' in r && !('ok' in r) ? { ok: false, why: r.why, cited: '' } : r;
  }

  /**
   * "Re-check" on a stale fact: the user says it still holds. Its citation is taken again from the
   * lines as they are now (refused as any citation would be), and its age starts over.
   */
  async recheck(id: string): Promise<FactResult> {
    const found = this.locate(id);
    if ('why' in found) return { ok: false, why: found.why, cited: '' };
    const c = found.fact.citation;
    if (found.global && c?.kind === 'lines') return { ok: false, why: GLOBAL_CITES_NO_FILE, cited: citationLabel(c) };
    // Read again in the folder the citation names; a folder no longer open has none of its lines here.
    const closed = c?.kind === 'lines' ? c.files.find((f) => f.folder && !folderRoot(this.o.fs.roots, f.folder)) : undefined;
    if (closed) return { ok: false, why: `the folder ${closed.folder} is not open`, cited: citationLabel(c) };
    const lines = c?.kind === 'lines' ? c.files.map((f) => ({ ...f, path: f.folder ? path.join(folderRoot(this.o.fs.roots, f.folder)!, f.path) : f.path })) : undefined;
    const citation = lines ? await this.citeLines(lines) : c;
    if (citation && 'why' in citation) return { ok: false, why: citation.why, cited: citationLabel(c) };
    const now = this.now();
    const r = this.change(found.fact.id, (_all, fact): FactResult => {
      if (citation) fact.citation = citation;
      fact.checked = now;
      return { ok: true, fact, cited: citationLabel(citation), updated: true };
    });
    return 'why' in r && !('ok' in r) ? { ok: false, why: r.why, cited: '' } : r;
  }

  /** Which fact an id (or a unique prefix of one) names, among this workspace's and the global ones. */
  private locate(id: string): { fact: Fact; global: boolean } | { why: string } {
    const mine = this.facts('workspace').map((fact) => ({ fact, global: false }));
    const global = this.facts('global').map((fact) => ({ fact, global: true }));
    const all = [...mine, ...global];
    const exact = all.find((f) => f.fact.id === id);
    if (exact) return exact;
    const matches = id.length >= 2 ? all.filter((f) => f.fact.id.startsWith(id)) : [];
    if (matches.length === 1) return matches[0]!;
    return { why: matches.length ? `"${id}" matches ${matches.length} facts; give more of the id` : `no fact "${id}" in this workspace or among the global ones` };
  }

  /** Changes one fact in its own store, read fresh: the change sees the stored fact itself. */
  private change<T>(id: string, how: (all: Fact[], fact: Fact) => T): T | { why: string } {
    const found = this.locate(id);
    if ('why' in found) return found;
    const store = found.global ? this.o.globalStore! : this.o.store;
    return store.update((all) => {
      const fact = all.find((f) => f.id === found.fact.id && (found.global ? f.global : f.workspace === this.o.workspace && !f.global));
      return fact ? how(all, fact) : { why: `no fact "${id}" any more` };
    });
  }

}
