/**
 * The Facts view (beside the chat in the Tandem container): every fact of the workspace, checked
 * against the code each time it is shown — its sentence, its citation as a link that opens the cited
 * lines, its age, a stale mark with why — with Edit, Forget and Re-check, and "Tandem: Remember…"
 * (the selection, if any, is its citation). Off (`tandem.facts.enabled`), the view says so at its
 * top; the facts stay listed, and none is learned or sent.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { MessageMenuContext, type Card, type FactView } from '../../protocol';
import { evidenceLabel, messageEvidence } from '../../core/facts/messageEvidence';
import type { Evidence, FactBook, FactResult, FactScope } from '../../core/facts/factBook';
import type { Logger } from '../../core/ports/ports';
import { readFactSettings } from './vscodeFacts';
import type { AgentSettings } from '../../core/settings/settings';
import { proposalLines } from '../../core/facts/factConsolidation';
import { ConsolidationOffer } from '../../core/facts/consolidationOffer';
import { proposeWithSummaryModel } from '../node/factConsolidator';

const DAY_MS = 24 * 60 * 60 * 1000;
const OFF_MESSAGE = 'Facts are turned off (tandem.facts.enabled): none are learned or sent.';

function ageOf(ts: number): string {
  const days = Math.floor((Date.now() - ts) / DAY_MS);
  return days <= 0 ? 'today' : days === 1 ? '1 day' : `${days} days`;
}

/** The global facts' group: below the workspace's own facts, open. */
interface GlobalGroup {
  group: 'global';
  facts: FactView[];
}
type FactsNode = FactView | GlobalGroup;
const isGroup = (n: FactsNode): n is GlobalGroup => 'group' in n;

class FactsTree implements vscode.TreeDataProvider<FactsNode> {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(private readonly book: FactBook, private readonly logger: Logger) {}

  refresh(): void {
    this.changed.fire();
  }

  async getChildren(parent?: FactsNode): Promise<FactsNode[]> {
    if (parent) return isGroup(parent) ? parent.facts : [];
    const views = await this.book.list();
    const problem = this.book.takeProblem();
    if (problem) {
      this.logger.warn(problem);
      void vscode.window.showWarningMessage(problem);
    }
    const global = views.filter((v) => v.fact.global);
    return [...views.filter((v) => !v.fact.global), ...(global.length ? [{ group: 'global' as const, facts: global }] : [])];
  }

  getTreeItem(n: FactsNode): vscode.TreeItem {
    if (isGroup(n)) {
      const group = new vscode.TreeItem('Global facts', vscode.TreeItemCollapsibleState.Expanded);
      group.id = 'global-facts';
      group.description = `${n.facts.length} · every workspace`;
      group.tooltip = 'Your own facts, sent in every workspace (kept outside any workspace). They cite no file: lines belong to one workspace.';
      group.iconPath = new vscode.ThemeIcon('globe');
      group.contextValue = 'global-facts-group';
      group.accessibilityInformation = { label: `Global facts: ${n.facts.length}, sent in every workspace` };
      return group;
    }
    const v = n;
    const item = new vscode.TreeItem(v.fact.text, vscode.TreeItemCollapsibleState.None);
    item.id = v.fact.id;
    item.description = `${v.stale ? 'stale · ' : ''}${v.cited} · ${ageOf(v.fact.checked)}`;
    const who = v.fact.source.by === 'reviewer' ? `learned by the ${v.fact.source.role ?? 'reviewer'}${v.fact.source.model ? ` (${v.fact.source.model})` : ''}` : v.fact.global ? 'added by you for every workspace' : 'added by you';
    const tip = new vscode.MarkdownString(undefined, false);
    tip.appendText(`${v.fact.text}\n\nFrom ${v.cited} — ${who}, ${new Date(v.fact.created).toLocaleString()}; checked ${ageOf(v.fact.checked)} ago.`);
    if (v.stale) tip.appendText(`\n\nStale, not sent: ${v.stale.detail}`);
    item.tooltip = tip;
    item.contextValue = v.stale ? 'fact-stale' : 'fact';
    item.iconPath = new vscode.ThemeIcon(v.stale ? 'warning' : 'lightbulb');
    item.accessibilityInformation = { label: `${v.stale ? 'Stale fact' : 'Fact'}: ${v.fact.text}, from ${v.cited}${v.fact.global ? ', global' : ''}` };
    if (v.fact.citation?.kind === 'lines') item.command = { command: 'tandem.facts.openCitation', title: 'Open Cited Lines', arguments: [v] };
    return item;
  }
}

export interface FactsViewDeps {
  book: FactBook;
  logger: Logger;
  /** The settings in force: the endpoint and summary model a consolidation asks. */
  settings(): AgentSettings;
  /** A fact was forgotten from the view: the chat marks its Learned cards. */
  onForgotten?(factId: string): void;
  /** A card of the chat's task (a message's context menu names it by id). */
  cardById?(id: string): Card | undefined;
  /** The chat's task: past the maximum, Consolidate is offered once per task. */
  taskId?(): string;
}

/**
 * "Remember…": one sentence from the user, then where it is kept — this workspace, or every
 * workspace (global). A global fact cites no file, so with lines to cite the choice says it goes
 * without them; a command's output may still be its citation. Undefined when the user cancelled.
 */
export function rememberFlow(book: FactBook) {
  return async (evidence: Evidence | undefined, citing: string | undefined, uncited = 'select lines first to cite them'): Promise<FactResult | undefined> => {
    const text = await vscode.window.showInputBox({
      title: 'Tandem: Remember…',
      prompt: citing ? `One sentence about this project, citing ${citing}` : `One sentence about this project (${uncited})`,
      validateInput: (s) => (s.trim() ? undefined : 'Say what to remember'),
    });
    if (text === undefined) return undefined;
    let scope: FactScope = 'workspace';
    if (book.hasGlobal) {
      const lines = evidence && 'lines' in evidence && evidence.lines.length > 0;
      const picked = await vscode.window.showQuickPick(
        [
          { label: 'This workspace', description: citing ? `citing ${citing}` : 'your own note', scope: 'workspace' as const },
          { label: 'Every workspace (global)', description: lines ? 'without the citation: lines belong to one workspace' : citing ? `citing ${citing}` : 'your own note', scope: 'global' as const },
        ],
        { title: `Remember "${text.length > 60 ? `${text.slice(0, 59)}…` : text}" for…`, placeHolder: 'Where this fact is kept and sent' },
      );
      if (!picked) return undefined;
      scope = picked.scope;
    }
    const lines = evidence && 'lines' in evidence;
    const kept = scope === 'global' && lines ? undefined : evidence;
    const r = await book.add(text, kept, { scope });
    if (r.ok || !kept) return r;
    // The citation was refused (a file a read refuses, lines that are not there): the sentence the user typed is not lost.
    const choice = await vscode.window.showWarningMessage(`Not remembered with its citation: ${r.why}`, 'Keep Without the Citation');
    return choice ? book.add(text, undefined, { scope }) : { ...r, why: '' };
  };
}

/** Registers the view and its commands; `changed` is for the host's own changes (a fact learned). */
export function registerFactsView(context: vscode.ExtensionContext, deps: FactsViewDeps): { changed(): void } {
  const { book, logger } = deps;
  const tree = new FactsTree(book, logger);
  const remember = rememberFlow(book);
  const offer = new ConsolidationOffer();
  // More facts than tandem.facts.max: a notification offers Consolidate (once per task); nothing changes unless the user keeps its result.
  const offerConsolidation = () => {
    const settings = readFactSettings();
    const count = book.facts('workspace').length;
    if (!settings.enabled || !offer.due(deps.taskId?.() ?? '', count, settings.max)) return;
    void vscode.window
      .showInformationMessage(`Tandem: ${count} facts about this workspace, past tandem.facts.max (${settings.max}). Consolidate them? The summary model proposes merges and drops; nothing changes before you keep it.`, 'Consolidate…')
      .then((choice) => { if (choice) void vscode.commands.executeCommand('tandem.facts.consolidate'); });
  };
  const view = vscode.window.createTreeView('tandem.facts', { treeDataProvider: tree, showCollapseAll: false });
  const showState = () => {
    view.message = readFactSettings().enabled ? undefined : OFF_MESSAGE;
  };
  showState();
  const refresh = () => {
    showState();
    tree.refresh();
  };
  const setEnabled = async (on: boolean) => {
    await vscode.workspace.getConfiguration('tandem.facts').update('enabled', on, vscode.ConfigurationTarget.Global);
    refresh();
  };
  const said = (r: { ok: boolean; why?: string }, done: string) => {
    if (r.ok) void vscode.window.setStatusBarMessage(done, 3000);
    // An empty reason: the user was told already (and chose not to keep it).
    else if (r.why !== '') void vscode.window.showWarningMessage(r.why ?? 'Not done.');
    refresh();
  };
  const added = (r: FactResult, done: string) => {
    said(r, done);
    if (r.ok) offerConsolidation();
  };
  context.subscriptions.push(
    view,
    vscode.commands.registerCommand('tandem.facts.refresh', refresh),
    vscode.commands.registerCommand('tandem.facts.enable', () => setEnabled(true)),
    vscode.commands.registerCommand('tandem.facts.disable', () => setEnabled(false)),
    vscode.commands.registerCommand('tandem.facts.openCitation', async (v?: FactView) => {
      const f = v?.fact.citation?.kind === 'lines' ? v.fact.citation.files[0] : undefined;
      const root = book.rootOf(f?.folder);
      if (!f || !root) return;
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(root, f.path)));
      const last = Math.min(f.end, doc.lineCount) - 1;
      const range = new vscode.Range(f.start - 1, 0, last, doc.lineAt(Math.max(0, last)).text.length);
      await vscode.window.showTextDocument(doc, { selection: range, preview: true });
    }),
    vscode.commands.registerCommand('tandem.facts.forget', (v?: FactView) => {
      if (!v) return;
      const r = book.remove(v.fact.id);
      if ('removed' in r) deps.onForgotten?.(v.fact.id);
      said('removed' in r ? { ok: true } : { ok: false, why: r.why }, `Forgot: ${v.fact.text}`);
    }),
    vscode.commands.registerCommand('tandem.facts.edit', async (v?: FactView) => {
      if (!v) return;
      const text = await vscode.window.showInputBox({ title: 'Edit fact', value: v.fact.text, prompt: `One sentence; it keeps its citation (${v.cited}).`, validateInput: (s) => (s.trim() ? undefined : 'A fact cannot be empty') });
      if (text === undefined) return;
      said(book.edit(v.fact.id, text), 'Fact saved');
    }),
    vscode.commands.registerCommand('tandem.facts.recheck', async (v?: FactView) => {
      if (!v) return;
      said(await book.recheck(v.fact.id), `Re-checked: ${v.fact.text}`);
    }),
    // The summary model proposes; the user sees "Facts: 44 → 23" with every merge and drop before anything is replaced, then may Undo.
    vscode.commands.registerCommand('tandem.facts.consolidate', async () => {
      const p = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Tandem: the summary model is consolidating the facts…' }, () => proposeWithSummaryModel(book, deps.settings()).catch((e: unknown) => ({ error: e instanceof Error ? e.message : String(e) })));
      if ('error' in p) {
        void vscode.window.showWarningMessage(`Facts not consolidated: ${p.error}`);
        return;
      }
      const [head, ...detail] = proposalLines(p);
      const choice = await vscode.window.showInformationMessage(head!, { modal: true, detail: `${detail.map((l) => l.trim()).join('\n')}\n\nNothing is replaced unless you keep it.` }, 'Keep');
      if (choice !== 'Keep') return;
      const kept = book.replace(p.before, p.after);
      refresh();
      if (!kept.ok) {
        void vscode.window.showWarningMessage(kept.why);
        return;
      }
      const undo = await vscode.window.showInformationMessage(`${head}: kept.`, 'Undo');
      if (undo !== 'Undo') return;
      const back = book.replace(p.after, p.before);
      refresh();
      if (!back.ok) void vscode.window.showWarningMessage(`Not undone: ${back.why}`);
    }),
    vscode.commands.registerCommand('tandem.remember', async () => {
      const editor = vscode.window.activeTextEditor;
      const sel = editor && !editor.selection.isEmpty ? editor.selection : undefined;
      // Named as the workspace names it (with its folder when several are open); cited by its own path, so the lines are read in that folder.
      const rel = editor ? vscode.workspace.asRelativePath(editor.document.uri) : undefined;
      const cite = sel && rel && !path.isAbsolute(rel) ? { path: editor!.document.uri.fsPath, start: sel.start.line + 1, end: sel.end.character === 0 && sel.end.line > sel.start.line ? sel.end.line : sel.end.line + 1 } : undefined;
      const r = await remember(cite ? { lines: [cite] } : undefined, cite ? `${rel}:${cite.start}-${cite.end}` : undefined);
      if (r) added(r, 'Remembered');
      await vscode.commands.executeCommand('tandem.facts.focus');
    }),
    // A message's context menu in the chat: the fact cites what the message rests on (its command's output, the lines it read or names).
    vscode.commands.registerCommand('tandem.rememberMessage', async (context?: unknown) => {
      const parsed = MessageMenuContext.safeParse(context);
      const card = parsed.success ? deps.cardById?.(parsed.data.cardId) : undefined;
      if (!card) {
        logger.warn(`rememberMessage: no message for ${JSON.stringify(context)?.slice(0, 200)}`);
        void vscode.window.showWarningMessage('Tandem: that message is no longer in the chat; nothing to remember from it.');
        return;
      }
      const evidence = messageEvidence(card);
      const r = await remember(evidence, evidence ? `${evidenceLabel(evidence)} (from the message)` : undefined, 'the message names no lines and ran no command: your own note');
      if (r) added(r, 'Remembered');
      if (r?.ok) await vscode.commands.executeCommand('tandem.facts.focus');
    }),
    vscode.workspace.onDidChangeConfiguration((e) => { if (e.affectsConfiguration('tandem.facts')) refresh(); }),
    // What is stale follows the files: a saved change to cited lines shows at once.
    vscode.workspace.onDidSaveTextDocument(() => { if (view.visible) tree.refresh(); }),
    view.onDidChangeVisibility((e) => { if (e.visible) tree.refresh(); }),
  );
  return {
    changed: () => {
      refresh();
      offerConsolidation();
    },
  };
}
