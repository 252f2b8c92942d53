import * as vscode from 'vscode';
import * as path from 'node:path';
import type { ApprovalDecision, ApprovalRequest, Approver, Logger } from '../../core/ports/ports';
import { nullLogger } from '../../core/ports/ports';
import type { PanelApprover } from './panelApprover';
import { ORIGINAL_SCHEME, OriginalContent, PROPOSED_SCHEME, ProposalFs } from './proposalFs';

interface Proposal {
  req: ApprovalRequest;
  proposed: vscode.Uri;
  original: vscode.Uri;
  title: string;
  /** Absolute path of the file the edit is for, when known (to show it after approval). */
  target?: string;
}

/**
 * The host's Approver. Edits (anything with a proposed text) open a real diff — the agent's base
 * text on the left, the proposal on the right, editable — without taking focus from whatever the
 * user is typing in. Approve / Reject come from the chat card (forwarded by the panel) or from the
 * diff editor's title bar; what is written is the right side as the user left it. Everything else
 * (commands, deletions, paths outside the workspace) is answered on the chat card alone.
 */
export class DiffApprover implements Approver, vscode.Disposable {
  readonly proposals = new ProposalFs();
  private readonly originals = new OriginalContent();
  private readonly open = new Map<string, Proposal>();
  private counter = 0;
  private readonly subs: vscode.Disposable[];

  private readonly proposedScheme: string;
  private readonly originalScheme: string;

  constructor(
    private readonly panel: PanelApprover,
    private readonly logger: Logger = nullLogger,
    private readonly roots: () => readonly string[] = () => [],
    /** Other schemes only for tests that run beside the extension's own approver (a scheme registers once). */
    schemes: { proposed: string; original: string } = { proposed: PROPOSED_SCHEME, original: ORIGINAL_SCHEME },
  ) {
    this.proposedScheme = schemes.proposed;
    this.originalScheme = schemes.original;
    this.subs = [
      vscode.workspace.registerFileSystemProvider(this.proposedScheme, this.proposals, { isCaseSensitive: true }),
      vscode.workspace.registerTextDocumentContentProvider(this.originalScheme, this.originals),
    ];
  }

  async request(req: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
    if (req.files?.length) return this.requestMany(req, req.files, signal);
    if (req.proposedText === undefined) return this.panel.request(req, signal);

    const name = path.basename(req.info.real_path ?? req.info.path ?? 'proposal') || 'proposal';
    const proposal: Proposal = {
      req,
      proposed: ProposalFs.uriFor(this.proposedScheme, `Tandem proposal ${++this.counter}`, name),
      original: ProposalFs.uriFor(this.originalScheme, `Tandem proposal ${this.counter}`, name),
      // Steps run side by side may each have a diff open: the tab says whose.
      title: `${req.info.path ?? name} ↔ Tandem's proposal${req.info.step ? ` for step ${req.info.step}` : ''} (editable)`,
      target: this.absoluteTarget(req),
    };
    this.proposals.put(proposal.proposed, req.proposedText);
    this.originals.put(proposal.original, req.originalText ?? '');
    this.open.set(req.callId, proposal);
    try {
      const decided = this.panel.request(req, signal);
      await this.showDiff(proposal).catch((e) => this.logger.warn(`could not open the diff for ${req.callId}: ${e}`));
      const decision = await decided;
      if (!decision.approved) {
        this.keepRejected(req.callId, { file: proposal.target ?? req.info.path ?? name, display: req.info.path ?? name, before: req.originalText ?? '', after: this.currentText(proposal) });
        return decision;
      }
      const approved = this.currentText(proposal);
      this.logger.info(`approved ${req.tool} ${req.info.path ?? ''}${approved !== req.proposedText ? ' (edited by the user)' : ''}`);
      if (req.info.step !== undefined) {
        // A step run beside others edits its own copy of the workspace: the workspace file is not
        // what was approved (it changes only when the step is applied), so it is not shown; the
        // card's Open diff shows the step's own proposal, as approved.
        this.keepStepProposal(req.callId, { file: proposal.target ?? req.info.path ?? name, display: req.info.path ?? name, before: req.originalText ?? '', after: approved, step: req.info.step });
      } else if (req.info.kind === 'edit') await this.revealTarget(req.callId);
      return approved !== req.proposedText ? { ...decision, editedText: approved } : decision;
    } finally {
      this.open.delete(req.callId);
      await this.closeDiff(proposal).catch((e) => this.logger.warn(`could not close the diff: ${e}`));
      this.proposals.remove(proposal.proposed);
      this.originals.remove(proposal.original);
    }
  }

  /**
   * Rejected proposals of this window, newest last: the card's "Open rejected diff" shows what was
   * turned down (nothing was written, so the checkpoints have no record of it). Bounded: a long
   * task rejects many things, and only recent ones are looked at again.
   */
  private readonly rejected = new Map<string, { file: string; display: string; before: string; after: string }>();

  private keepRejected(callId: string, change: { file: string; display: string; before: string; after: string }): void {
    this.rejected.set(callId, change);
    while (this.rejected.size > 50) this.rejected.delete(this.rejected.keys().next().value!);
  }

  /** Shows a rejected proposal again (read-only); false when this window kept none for the call. */
  async showRejected(callId: string): Promise<boolean> {
    const r = this.rejected.get(callId);
    if (!r) return false;
    await this.showTexts(`${r.display}: before ↔ rejected proposal (not written)`, r.file, r.before, r.after);
    return true;
  }

  /** Approved proposals of steps run beside others, newest last (bounded as the rejected ones). */
  private readonly stepProposals = new Map<string, { file: string; display: string; before: string; after: string; step: number }>();

  private keepStepProposal(callId: string, change: { file: string; display: string; before: string; after: string; step: number }): void {
    this.stepProposals.set(callId, change);
    while (this.stepProposals.size > 50) this.stepProposals.delete(this.stepProposals.keys().next().value!);
  }

  /** Shows a side-by-side step's approved proposal again (read-only); false when this window kept none for the call. */
  async showStepProposal(callId: string): Promise<boolean> {
    const r = this.stepProposals.get(callId);
    if (!r) return false;
    await this.showTexts(`${r.display}: before ↔ step ${r.step}'s change (reaches the workspace when step ${r.step} is applied)`, r.file, r.before, r.after);
    return true;
  }

  /** Several files' changes as one approval (a rename): one multi-file diff, read-only; decided on the chat card. */
  private readonly many = new Map<string, () => Promise<void>>();

  private async requestMany(req: ApprovalRequest, files: NonNullable<ApprovalRequest['files']>, signal: AbortSignal): Promise<ApprovalDecision> {
    const n = ++this.counter;
    const uris = files.map((f, i) => {
      const name = path.basename(f.absPath) || 'file';
      const left = ProposalFs.uriFor(this.originalScheme, `Tandem proposal ${n}.${i} before`, name);
      const right = ProposalFs.uriFor(this.originalScheme, `Tandem proposal ${n}.${i}`, name);
      this.originals.put(left, f.originalText);
      this.originals.put(right, f.proposedText);
      return [vscode.Uri.file(f.absPath), left, right] as const;
    });
    const title = `Tandem proposal ${n}: ${req.info.reason ?? 'change'}`;
    const show = () => Promise.resolve(vscode.commands.executeCommand('vscode.changes', title, uris)).then(() => undefined);
    this.many.set(req.callId, show);
    try {
      const decided = this.panel.request(req, signal);
      await show().catch((e) => this.logger.warn(`could not open the multi-file diff for ${req.callId}: ${e}`));
      return await decided;
    } finally {
      this.many.delete(req.callId);
      // The multi-diff tab's input type is not public API; its title is ours and unique (numbered).
      const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.label === title);
      if (tabs.length) await vscode.window.tabGroups.close(tabs, true).then(undefined, () => undefined);
      for (const [, l, r] of uris) { this.originals.remove(l); this.originals.remove(r); }
    }
  }

  /** Chat card "Approve" (and the diff title bar). False when no such call waits. */
  approve(callId: string, note?: string, addToPlan?: boolean): boolean { return this.panel.approve(callId, note, addToPlan); }

  /** Chat card "Reject" (and the diff title bar). */
  reject(callId: string, reason?: string): boolean { return this.panel.reject(callId, reason); }

  /** Chat card "Open diff": shows the diff again (the user closed it, or wants focus in it). */
  async openDiff(callId: string, preserveFocus = false): Promise<boolean> {
    const many = this.many.get(callId);
    if (many) { await many(); return true; }
    const p = this.open.get(callId);
    if (!p) return false;
    await this.showDiff(p, preserveFocus);
    return true;
  }

  private shown = 0;

  /**
   * A read-only diff of two texts in the proposals' column: a decided change (before ↔ as the agent
   * left it) or a file since the task started. `after` undefined: the file as it is on disk now.
   */
  async showTexts(title: string, file: string, before: string, after: string | undefined): Promise<void> {
    const name = path.basename(file) || 'file';
    const n = ++this.shown;
    const left = ProposalFs.uriFor(this.originalScheme, `Tandem change ${n} before`, name);
    this.originals.put(left, before);
    let right: vscode.Uri;
    if (after === undefined) {
      right = vscode.Uri.file(file);
    } else {
      right = ProposalFs.uriFor(this.originalScheme, `Tandem change ${n} after`, name);
      this.originals.put(right, after);
    }
    await vscode.commands.executeCommand('vscode.diff', left, right, title, { preview: true, preserveFocus: false, viewColumn: this.pickDiffColumn() });
  }

  /** The call a URI (the diff's right or left side) belongs to, for the title-bar commands. */
  callIdFor(uri: vscode.Uri | undefined): string | undefined {
    const fromUri = uri ? this.callIdOf(uri) : undefined;
    if (fromUri && this.open.has(fromUri)) return fromUri;
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    if (input instanceof vscode.TabInputTextDiff) {
      const id = this.callIdOf(input.modified);
      if (id && this.open.has(id)) return id;
    }
    // One proposal open: the title bar can only mean that one.
    return this.open.size === 1 ? [...this.open.keys()][0] : undefined;
  }

  pendingProposals(): string[] { return [...this.open.keys()]; }

  /** The proposal's URI (right side of the diff) while it waits. */
  proposedUri(callId: string): vscode.Uri | undefined { return this.open.get(callId)?.proposed; }

  private callIdOf(uri: vscode.Uri): string | undefined {
    if (uri.scheme !== this.proposedScheme && uri.scheme !== this.originalScheme) return undefined;
    const key = uri.toString();
    for (const [id, p] of this.open) if (p.proposed.toString() === key || p.original.toString() === key) return id;
    return undefined;
  }

  /** The editor column proposals open in, once one has: reused, so columns never multiply. */
  private diffColumn: vscode.ViewColumn | undefined;

  private isProposalTab(t: vscode.Tab): boolean {
    const uri = t.input instanceof vscode.TabInputTextDiff ? t.input.original : t.input instanceof vscode.TabInputText ? t.input.uri : undefined;
    return uri?.scheme === this.proposedScheme || uri?.scheme === this.originalScheme;
  }

  /**
   * Where a proposal's diff goes: the column already showing one; else the one used last, if it is
   * still there; else the one group when it is empty, or a new column beside it (the user keeps their
   * file in view). Never "beside the active group": clicking into a diff made
   * that the active group, and each next proposal then opened one column further right.
   */
  private pickDiffColumn(): vscode.ViewColumn {
    const groups = vscode.window.tabGroups.all;
    const withProposal = groups.find((g) => g.tabs.some((t) => this.isProposalTab(t)));
    if (withProposal) return withProposal.viewColumn;
    if (this.diffColumn !== undefined && groups.some((g) => g.viewColumn === this.diffColumn)) return this.diffColumn;
    // One group: the diff goes in it when it is empty, else beside it (the only place "beside" can be).
    if (groups.length === 1) return groups[0]!.tabs.length === 0 ? groups[0]!.viewColumn : vscode.ViewColumn.Beside;
    const active = vscode.window.tabGroups.activeTabGroup;
    return [...groups].reverse().find((g) => g !== active)?.viewColumn ?? vscode.ViewColumn.Two;
  }

  private async showDiff(p: Proposal, preserveFocus = true): Promise<void> {
    const viewColumn = this.pickDiffColumn();
    await vscode.commands.executeCommand('vscode.diff', p.original, p.proposed, p.title, { preview: true, preserveFocus, viewColumn });
    this.diffColumn = vscode.window.tabGroups.all.find((g) => g.tabs.some((t) => this.isProposalTab(t)))?.viewColumn ?? this.diffColumn;
  }

  /** The right side as the user left it: an unsaved edit in the diff counts. */
  private currentText(p: Proposal): string {
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === p.proposed.toString());
    if (doc?.isDirty) return doc.getText();
    return this.proposals.text(p.proposed) ?? p.req.proposedText ?? '';
  }

  private async closeDiff(p: Proposal): Promise<void> {
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === p.proposed.toString());
    // Saved into memory only, so closing the tab does not ask "Save changes?".
    if (doc?.isDirty) await doc.save();
    const key = p.proposed.toString();
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) =>
      (t.input instanceof vscode.TabInputTextDiff && t.input.modified.toString() === key)
      || (t.input instanceof vscode.TabInputText && t.input.uri.toString() === key));
    if (tabs.length) await vscode.window.tabGroups.close(tabs, true);
  }

  private absoluteTarget(req: ApprovalRequest): string | undefined {
    const p = req.info.real_path ?? req.info.path;
    if (!p) return undefined;
    if (path.isAbsolute(p)) return p;
    const root = this.roots()[0];
    return root ? path.join(root, p) : undefined;
  }

  /**
   * After an approved edit, show the changed file (without focus) so the user sees it land: where
   * it is already open, else in the diff's column (the diff closes next) — never a second copy.
   */
  async revealTarget(callId: string): Promise<void> {
    const p = this.open.get(callId);
    if (!p?.target) return;
    const uri = vscode.Uri.file(p.target);
    const key = uri.toString();
    const openIn = vscode.window.tabGroups.all.find((g) => g.tabs.some((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === key));
    const viewColumn = openIn?.viewColumn ?? this.pickDiffColumn();
    await vscode.window.showTextDocument(uri, { preview: true, preserveFocus: true, viewColumn }).then(undefined, () => undefined);
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
  }
}

/** The diff editor's title-bar Approve / Reject. Contributed in package.json for `resourceScheme == tandem-proposed`. */
export function registerDiffTitleCommands(
  approver: DiffApprover,
  logger: Logger = nullLogger,
  ids: { approve: string; reject: string } = { approve: 'tandem.approveChange', reject: 'tandem.rejectChange' },
): vscode.Disposable {
  const pick = (uri: unknown) => approver.callIdFor(uri instanceof vscode.Uri ? uri : undefined);
  return vscode.Disposable.from(
    vscode.commands.registerCommand(ids.approve, (uri?: unknown) => {
      const id = pick(uri);
      if (!id || !approver.approve(id)) { logger.warn('Approve: no Tandem proposal is waiting for this editor'); return; }
    }),
    vscode.commands.registerCommand(ids.reject, (uri?: unknown) => {
      const id = pick(uri);
      if (!id || !approver.reject(id)) { logger.warn('Reject: no Tandem proposal is waiting for this editor'); return; }
    }),
  );
}
