/**
 * `tandem facts list|add|rm|clear`: the workspace's facts in the user's hands. `list` checks each
 * against the code now (stale ones are marked with why: they are not sent); `add` refuses a
 * citation a read would refuse; `rm` takes a unique prefix of an id.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FactView } from '../protocol';
import { visibleControls } from '../protocol/visibleControls';
import { NodeWorkspaceFs } from '../host/node/nodeWorkspaceFs';
import type { CiteInput } from '../core/facts/factBook';
import type { FactsArgs } from './args';
import { cliFactBook } from './cliFacts';
import { historyDirFor } from './history';
import { factsUsage } from './usage';
import { EXIT } from './commands';
import { applyConsolidation, consolidate, describeProposal, undoConsolidation } from './factsConsolidate';

export interface FactsIo {
  env: NodeJS.ProcessEnv;
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  cwd: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;

function age(ts: number, now: number): string {
  const days = Math.floor((now - ts) / DAY_MS);
  return days <= 0 ? 'today' : `${days}d`;
}

function parseCite(c: string): CiteInput {
  const m = /^(.+):(\d+)(?:-(\d+))?$/.exec(c)!;
  return { path: m[1]!, start: Number(m[2]), end: Number(m[3] ?? m[2]) };
}

function listText(views: readonly FactView[], now: number, enabled: boolean): string {
  const mine = views.filter((v) => !v.fact.global);
  const global = views.filter((v) => v.fact.global);
  const off = enabled ? '' : 'Facts are turned off (TANDEM_FACTS=off): none are sent or learned.\n';
  const globalText = global.length ? `\nGlobal facts (yours, sent in every workspace):\n${factLines(global, now)}` : '';
  return `${off}${mine.length ? factLines(mine, now) : 'No facts for this workspace.\n'}${globalText}`;
}

function factLines(views: readonly FactView[], now: number): string {
  const lines = views.map((v) => `${v.fact.id}  ${age(v.fact.checked, now).padStart(5)}  ${v.stale ? 'STALE ' : ''}${v.fact.text}\n    — from ${v.cited}${v.fact.source.by === 'reviewer' ? ` (learned by the ${v.fact.source.role ?? 'reviewer'}${v.fact.source.model ? `, ${v.fact.source.model}` : ''})` : ' (yours)'}${v.stale ? `\n    stale, not sent: ${v.stale.detail}` : ''}`);
  return `${lines.join('\n')}\n`;
}

export async function runFactsCommand(args: FactsArgs, io: FactsIo): Promise<number> {
  const shownOut = (s: string) => io.stdout(visibleControls(s));
  const shownErr = (s: string) => io.stderr(visibleControls(s));
  const ws = path.resolve(io.cwd, args.workspace ?? '.');
  if (!fs.existsSync(ws) || !fs.statSync(ws).isDirectory()) {
    shownErr(`tandem: --workspace ${args.workspace ?? '.'} is not a folder\n`);
    return EXIT.usage;
  }
  const historyDir = historyDirFor(ws, io.env, args.historyDir && path.resolve(io.cwd, args.historyDir));
  const book = cliFactBook({
    workspace: ws,
    historyDir,
    fs: new NodeWorkspaceFs([fs.realpathSync(ws)]),
    env: io.env,
  });
  const [sub = 'list', ...rest] = args.words;
  const usageError = (message: string) => {
    shownErr(`tandem: ${message}\n\n${factsUsage()}`);
    return EXIT.usage;
  };
  if (args.cite.length && sub !== 'add') return usageError('--cite goes with facts add');
  if (args.apply && sub !== 'consolidate') return usageError('--apply goes with facts consolidate');
  if (args.global && sub !== 'add' && sub !== 'clear') return usageError('--global goes with facts add or facts clear');
  const warnProblem = () => {
    const p = book.takeProblem();
    if (p) shownErr(`tandem: ${p}\n`);
  };
  switch (sub) {
    case 'list': {
      if (rest.length) return usageError(`facts list takes no argument (got "${rest.join(' ')}")`);
      const views = await book.list();
      warnProblem();
      if (args.json) for (const v of views) io.stdout(`${JSON.stringify(v)}\n`);
      else {
        shownOut(listText(views, Date.now(), book.settings.enabled));
        const mine = views.filter((v) => !v.fact.global).length;
        if (mine > book.settings.max) shownOut(`${mine} facts, past TANDEM_FACTS_MAX (${book.settings.max}): tandem facts consolidate proposes merging and dropping some.\n`);
      }
      return EXIT.done;
    }
    case 'add': {
      const text = rest.join(' ').trim();
      if (!text) return usageError('facts add needs the fact: tandem facts add "<sentence>" [--cite PATH:START-END]');
      const r = await book.add(text, { lines: args.cite.map(parseCite) }, { scope: args.global ? 'global' : 'workspace' });
      warnProblem();
      if (!r.ok) {
        shownErr(`tandem: fact not added: ${r.why}\n`);
        return EXIT.error;
      }
      shownOut(`${r.updated ? 'Updated' : 'Added'} ${r.fact.global ? 'global fact ' : ''}${r.fact.id}: ${r.fact.text} — from ${r.cited}\n`);
      return EXIT.done;
    }
    case 'rm': {
      if (rest.length !== 1) return usageError('facts rm needs one fact id');
      const r = book.remove(rest[0]!);
      warnProblem();
      if ('why' in r) {
        shownErr(`tandem: ${r.why}\n`);
        return EXIT.error;
      }
      shownOut(`Forgot ${r.removed.id}: ${r.removed.text}\n`);
      return EXIT.done;
    }
    case 'clear': {
      if (rest.length) return usageError('facts clear takes no argument');
      const n = book.clear(args.global ? 'global' : 'workspace');
      warnProblem();
      shownOut(`Forgot ${n} ${args.global ? 'global ' : ''}fact${n === 1 ? '' : 's'}.\n`);
      return EXIT.done;
    }
    case 'consolidate': {
      if (rest.length) return usageError('facts consolidate takes no argument');
      const p = await consolidate({ book, env: io.env, ...(args.model ? { model: args.model } : {}), ...(args.baseURL ? { baseURL: args.baseURL } : {}) });
      warnProblem();
      if ('error' in p) {
        shownErr(`tandem: ${p.error}\n`);
        return EXIT.error;
      }
      shownOut(describeProposal(p));
      if (!args.apply) {
        shownOut('Nothing was replaced: run it again with --apply to keep this.\n');
        return EXIT.done;
      }
      const r = applyConsolidation(book, historyDir, p);
      if (!r.ok) {
        shownErr(`tandem: ${r.why}\n`);
        return EXIT.error;
      }
      shownOut('Kept. Undo it with: tandem facts undo\n');
      return EXIT.done;
    }
    case 'undo': {
      const r = undoConsolidation(book, historyDir);
      if (!r.ok) {
        shownErr(`tandem: ${r.why}\n`);
        return EXIT.error;
      }
      shownOut(`Restored the ${r.restored} facts from before the consolidation.\n`);
      return EXIT.done;
    }
    default:
      return usageError(`unknown facts command "${sub}" (expected list, add, rm, clear, consolidate, undo)`);
  }
}
