/**
 * History on the command line:
 *   tandem history [--workspace DIR] [--json]                  list saved tasks, newest first
 *   tandem history show ID [--json]                           print one task (read-only): Markdown, or its cards
 *   tandem history export ID [--out FILE.md]                  the task as Markdown
 *   tandem history delete ID                                  remove a task and its checkpoints
 *   tandem history revert ID [--call CALL_ID]                 undo one tool call's changes, or the whole task's
 *   tandem run --resume ID [run flags] "<prompt>"             continue a saved task
 * IDs may be shortened to a unique prefix. History lives outside the workspace (see
 * core/history/storageDir.ts); `--history-dir DIR` or TANDEM_DATA_DIR moves it, `--no-history`
 * (run) saves nothing. The arguments arrive parsed (args.ts); the usage text is usage.ts's.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { HistoryStore, HistoryError } from '../core/history/historyStore';
import { cliHistoryDir } from '../core/history/storageDir';
import { exportMarkdown } from '../core/history/exportMarkdown';
import { CheckpointStore } from '../core/checkpoints/checkpointStore';
import { revertDiffs, revertRefusalText } from '../core/checkpoints/revertRefusalText';
import { formatUsd } from '../core/cost/priceTable';
import type { TaskMeta } from '../core/history/format';
import { NodeWorkspaceFs } from '../host/node/nodeWorkspaceFs';
import type { HistoryArgs } from './args';
import { HISTORY_USAGE } from './usage';
import { visibleControls } from '../protocol/visibleControls';

export interface HistoryIo {
  env: NodeJS.ProcessEnv;
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  cwd: string;
}

export function historyDirFor(workspace: string, env: NodeJS.ProcessEnv, override?: string): string {
  return override ? path.resolve(override) : cliHistoryDir(workspace, env);
}

function kb(n: number): string {
  return n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : `${(n / 1024).toFixed(1)} KB`;
}

function when(ts: number): string {
  return new Date(ts).toISOString().replace('T', ' ').slice(0, 16);
}

function listTable(tasks: TaskMeta[]): string {
  if (tasks.length === 0) return 'No saved tasks for this workspace.\n';
  const rows = tasks.map((t) => [t.id, when(t.updated), String(t.cards), kb(t.bytes), t.usage.cost_usd !== undefined ? formatUsd(t.usage.cost_usd) : '?', t.title]);
  const head = ['ID', 'LAST ACTIVITY', 'CARDS', 'SIZE', 'COST', 'TITLE'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const fmt = (r: string[]) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ');
  return [fmt(head), ...rows.map(fmt)].join('\n') + '\n';
}

/** `tandem history …`; returns the exit code (0 ok, 1 failure, 2 bad usage). */
export async function runHistoryCommand(args: HistoryArgs, io: HistoryIo): Promise<number> {
  // Titles, Markdown, revert messages and diffs hold the model's text and files' contents: shown on a
  // terminal, their control characters are made visible (protocol/visibleControls.ts), as in `tandem run`'s
  // readable output. --json and `export --out FILE` stay byte-exact.
  const shownOut = (s: string) => io.stdout(visibleControls(s));
  const shownErr = (s: string) => io.stderr(visibleControls(s));
  const { workspace, historyDir, out, call, json, words } = args;
  const ws = path.resolve(io.cwd, workspace ?? '.');
  const store = new HistoryStore(historyDirFor(ws, io.env, historyDir && path.resolve(io.cwd, historyDir)));
  const [sub = 'list', id, extra] = words;
  const needId = () => {
    if (!id || extra) {
      shownErr(`tandem: history ${sub} needs one task id\n\n${HISTORY_USAGE}`);
      return false;
    }
    return true;
  };
  try {
    switch (sub) {
      case 'list': {
        if (id) {
          shownErr(`tandem: unknown history command "${id}"\n\n${HISTORY_USAGE}`);
          return 2;
        }
        const tasks = await store.list();
        if (json) for (const t of tasks) io.stdout(`${JSON.stringify(t)}\n`);
        else shownOut(listTable(tasks));
        return 0;
      }
      case 'show': {
        if (!needId()) return 2;
        const t = await store.load(id!);
        if (json) io.stdout(`${JSON.stringify({ type: 'snapshot', seq: 0, cards: t.cards, role: t.meta.role, task_id: t.meta.id })}\n`);
        else shownOut(`${exportMarkdown(t.meta, t.cards)}\n`);
        return 0;
      }
      case 'export': {
        if (!needId()) return 2;
        const t = await store.load(id!);
        const md = exportMarkdown(t.meta, t.cards);
        if (out) {
          fs.writeFileSync(path.resolve(io.cwd, out), md);
          shownErr(`Exported ${t.meta.id} to ${out}\n`);
        } else shownOut(`${md}\n`);
        return 0;
      }
      case 'delete': {
        if (!needId()) return 2;
        const gone = await store.delete(id!);
        shownOut(`Deleted ${gone}.\n`);
        return 0;
      }
      case 'revert': {
        if (!needId()) return 2;
        const full = await store.resolveId(id!);
        const cp = new CheckpointStore(path.join(store.taskDir(full), 'checkpoints'), new NodeWorkspaceFs([fs.realpathSync(ws)]));
        const calls = call ? [call] : [...new Set(cp.entries().filter((e) => !e.reverted).map((e) => e.callId))];
        const r = call ? await cp.revertCall(call) : await cp.revertTask();
        // Reverts are part of the task's story: recorded in its history like the panel's.
        const { recorder, task } = await store.resume(full);
        const now = Date.now();
        let seq = 0;
        if (r.ok) {
          for (const c of task.cards) {
            if (c.kind === 'tool_call' && calls.includes(c.call_id)) recorder.onEvent({ type: 'card_patched', seq: ++seq, id: c.id, patch: { reverted: true, revertible: false } });
          }
          recorder.onEvent({ type: 'card_added', seq: ++seq, card: { kind: 'text', id: `note-revert-cli-${now.toString(36)}`, author: 'system', note: 'revert', text: r.message, ts: now } });
        } else {
          // Recorded like the panel's refusal: the diffs in the card's details.
          const diffs = revertDiffs(r.conflicts);
          recorder.onEvent({ type: 'card_added', seq: ++seq, card: { kind: 'error', id: `note-revert-cli-${now.toString(36)}-refused`, message: revertRefusalText(r.message, r.conflicts, 'card'), ...(diffs ? { detail: diffs } : {}), retryable: false, ts: now } });
        }
        recorder.close();
        if (r.ok) {
          shownOut(`${r.message}\n`);
          return 0;
        }
        shownErr(`${revertRefusalText(r.message, r.conflicts, 'below')}\n`);
        for (const c of r.conflicts) if (c.diff) shownErr(`${c.diff}\n`);
        return 1;
      }
      default:
        shownErr(`tandem: unknown history command "${sub}"\n\n${HISTORY_USAGE}`);
        return 2;
    }
  } catch (err) {
    shownErr(`tandem: ${err instanceof HistoryError ? err.message : err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}
