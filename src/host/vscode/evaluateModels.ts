/**
 * **Tandem: Evaluate Models…** — `tandem eval` from the palette: where the tasks come from (the
 * built-in suite, the workspace's own history, or a suite folder), which of them (`--tasks`), which
 * model assignments, which flow and how many at a time (`--jobs`) are asked in turn; the eval then
 * runs in a terminal of its own (a pseudoterminal fed by the same runner as the CLI: progress lines
 * with the time left, Ctrl-C stops and keeps what finished), and the HTML report opens beside the
 * editor when it ends. Reports go to the extension's storage, one folder
 * per run, whose path the terminal prints.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Logger } from '../../core/ports/ports';
import type { Assignment } from '../../core/eval/evalReport';
import { assignmentLabel } from '../../core/eval/evalReport';
import type { EvalTask } from '../../core/eval/evalTask';
import { percent, usd } from '../../core/eval/evalMarkdown';
import { PRODUCT_ROLE_INFO } from '../../protocol';
import { runEval } from '../node/eval/evalRunner';
import { loadSuite } from '../node/eval/evalTasks';
import { builtinSuite, hasBuiltinSuite, PACKED_SUITE } from '../node/eval/builtinSuite';
import { editorTypeScript } from '../node/eval/typeScriptRunner';
import { buildGitTasks, repositoryTestCommand } from '../node/eval/fromGit';
import { gitSourceOf } from '../node/eval/taskCopy';
import type { ApiKeyStore } from './secrets';
import { readAgentSettings } from './settings';

/** `planner=a,actor=b; planner=c,actor=c` → assignments, or what is wrong. */
export function parseAssignments(text: string): Assignment[] | string {
  const roles = PRODUCT_ROLE_INFO;
  const out: Assignment[] = [];
  for (const one of text.split(';').map((s) => s.trim()).filter(Boolean)) {
    const models: Record<string, string> = {};
    for (const part of one.split(',').map((p) => p.trim()).filter(Boolean)) {
      const [role, model] = part.split('=', 2).map((x) => x.trim());
      if (!role || !model) return `"${part}" is not ROLE=MODEL`;
      if (!roles.has(role)) return `unknown role "${role}" (roles: ${roles.ids.join(', ')})`;
      models[role] = model;
    }
    const first = Object.values(models)[0];
    if (!first) continue;
    const all: Record<string, string> = {};
    for (const id of roles.ids) all[id] = models[id] ?? first;
    out.push({ label: assignmentLabel(all), models: all });
  }
  return out.length ? out : 'name at least one ROLE=MODEL';
}

/** The report as a webview page: no script runs, only its own inline styles. */
function showReport(file: string): void {
  const panel = vscode.window.createWebviewPanel('tandem.evalReport', 'Tandem eval report', { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, { enableScripts: false });
  const csp = `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`;
  panel.webview.html = fs.readFileSync(file, 'utf8').replace('<head>', `<head>${csp}`);
}

interface Choice extends vscode.QuickPickItem { id: 'builtin' | 'git' | 'folder' }

export async function evaluateModels(context: vscode.ExtensionContext, deps: { keys: ApiKeyStore; logger: Logger }): Promise<void> {
  const workspace = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  // The extension's code folder: dist/ holds the packed suite of an install; a checkout has eval-suite/ above it.
  const codeDir = path.join(context.extensionPath, 'dist');
  const choices: Choice[] = [
    ...(hasBuiltinSuite(codeDir) ? [{ id: 'builtin' as const, label: 'The built-in suite', detail: 'About 30 small real tasks in JavaScript, TypeScript and Python, verified by their own tests' }] : []),
    ...(workspace && fs.existsSync(path.join(workspace, '.git')) ? [{ id: 'git' as const, label: "This repository's history", detail: 'The last commits that change code and tests: the code taken back, the commit message as the request, its tests as the check' }] : []),
    { id: 'folder', label: 'A suite folder…', detail: 'Folders with a task.json each' },
  ];
  const source = await vscode.window.showQuickPick(choices, { title: 'Tandem: Evaluate Models (1/5): where do the tasks come from?' });
  if (!source) return;
  const apiKey = await deps.keys.get();
  const settings = readAgentSettings(apiKey);
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const outDir = path.join(context.globalStorageUri.fsPath, 'eval', stamp);
  let tasks: EvalTask[];
  const hidden = [outDir];
  if (source.id === 'git') {
    const n = await vscode.window.showInputBox({ title: 'How many commits?', value: '5', validateInput: (v) => (/^[1-9][0-9]?$/.test(v.trim()) ? undefined : 'A number from 1 to 99') });
    if (!n) return;
    const test = await vscode.window.showInputBox({ title: 'The command that runs the tests', value: repositoryTestCommand(workspace!) ?? '', validateInput: (v) => (v.trim() ? undefined : 'The tests decide whether a task passed: name their command') });
    if (!test) return;
    try {
      tasks = buildGitTasks(workspace!, Number(n), path.join(outDir, 'from-git'), test.trim());
    } catch (e) {
      void vscode.window.showErrorMessage(`Tandem: ${(e as Error).message}`);
      return;
    }
  } else {
    let suite: string | undefined;
    if (source.id === 'builtin') {
      try {
        suite = builtinSuite(codeDir, context.globalStorageUri.fsPath);
      } catch (e) {
        void vscode.window.showErrorMessage(`Tandem: ${(e as Error).message}`);
        return;
      }
      if (!suite) return;
    } else {
      const picked = await vscode.window.showOpenDialog({ canSelectFolders: true, canSelectFiles: false, title: 'The suite folder' });
      if (!picked?.[0]) return;
      suite = picked[0].fsPath;
    }
    const loaded = loadSuite(suite, []);
    if ('error' in loaded) {
      void vscode.window.showErrorMessage(`Tandem: ${loaded.error}`);
      return;
    }
    tasks = loaded;
    hidden.push(suite);
    if (source.id === 'builtin') hidden.push(path.join(codeDir, path.dirname(PACKED_SUITE)));
  }
  // Which of them: all are picked; typing filters (the ids say language and project), Space toggles.
  if (tasks.length > 1) {
    const picked = await vscode.window.showQuickPick(
      tasks.map((t) => ({ label: t.id, description: [t.spec.language, t.spec.tags.includes('plan-worthy') ? 'several files' : ''].filter(Boolean).join(' · '), detail: t.spec.prompt.split('\n')[0]!.slice(0, 120), picked: true, task: t })),
      { title: `Tandem: Evaluate Models (2/5): which tasks? (${tasks.length})`, canPickMany: true, matchOnDescription: true, placeHolder: 'All are picked: type to filter, Space to toggle, the box at the top toggles the ones shown' },
    );
    if (!picked?.length) return;
    tasks = picked.map((p) => p.task);
  }
  for (const t of tasks) {
    hidden.push(t.dir);
    const src = gitSourceOf(t);
    if (src) hidden.push(src);
  }
  const current = `planner=${settings.models.planner ?? ''},actor=${settings.models.actor ?? ''}`;
  const modelsText = await vscode.window.showInputBox({
    title: 'Tandem: Evaluate Models (3/5): model assignments',
    prompt: 'ROLE=MODEL pairs; separate assignments to compare with ";"',
    value: current,
    validateInput: (v) => {
      const a = parseAssignments(v);
      return typeof a === 'string' ? a : undefined;
    },
  });
  if (!modelsText) return;
  const assignments = parseAssignments(modelsText) as Assignment[];
  const flow = await vscode.window.showQuickPick(
    [{ label: 'plan', detail: 'Planner, Reviewer, then the Actor step by step, plans approved automatically' }, { label: 'act', detail: 'The Actor alone' }],
    { title: 'Tandem: Evaluate Models (4/5): which flow?' },
  );
  if (!flow) return;
  const jobsText = tasks.length * assignments.length > 1
    ? await vscode.window.showInputBox({
      title: 'Tandem: Evaluate Models (5/5): how many tasks at a time?',
      prompt: 'Each task runs in its own copy; more at a time is faster, and asks the endpoint more at once',
      value: '1',
      validateInput: (v) => (/^([1-9]|[12][0-9]|3[0-2])$/.test(v.trim()) ? undefined : 'A whole number from 1 to 32'),
    })
    : '1';
  if (!jobsText) return;
  const jobs = Number(jobsText.trim());

  const write = new vscode.EventEmitter<string>();
  const done = new vscode.EventEmitter<number | void>();
  const abort = new AbortController();
  const say = (s: string) => write.fire(s.replace(/\r?\n/g, '\r\n'));
  const c = vscode.workspace.getConfiguration('tandem.sandbox');
  const pty: vscode.Pseudoterminal = {
    onDidWrite: write.event,
    onDidClose: done.event,
    open: () => {
      say(`Tandem eval: ${tasks.length} task${tasks.length === 1 ? '' : 's'} × ${assignments.length} assignment${assignments.length === 1 ? '' : 's'}, flow ${flow.label}, ${jobs} at a time → ${outDir}\nCtrl-C stops; finished results are kept.\n\n`);
      void runEval({
        tasks, assignments, flow: flow.label as 'plan' | 'act', jobs, outDir, settings, hidden,
        sandbox: { network: false, secretFiles: c.get<string[]>('hiddenFiles'), allowSecretFiles: c.get<string[]>('shownFiles') },
        env: process.env, stderr: say, signal: abort.signal, projects: workspace ? [workspace] : [], editorTypeScript: editorTypeScript(vscode.env.appRoot),
      }).then(
        (r) => {
          for (const a of r.report.assignments) say(`${a.assignment}: ${a.passed}/${a.tasks} passed (${percent(a.passRate)}), cost ${usd(a.costUsd)}\n`);
          say(`\nReport: ${r.files.html}\n`);
          if (r.report.results.length) showReport(r.files.html);
        },
        (e) => {
          say(`\nTandem eval failed: ${(e as Error).message}\n`);
          deps.logger.error(`eval: ${(e as Error).stack ?? e}`);
        },
      );
    },
    close: () => abort.abort(),
    handleInput: (data) => {
      if (data === '\x03' && !abort.signal.aborted) {
        say('\nStopping…\n');
        abort.abort();
      }
    },
  };
  vscode.window.createTerminal({ name: 'Tandem eval', pty }).show();
}
