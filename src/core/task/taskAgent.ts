/**
 * The agent of one task: its role, and the one gate every user action passes (`act`, from the
 * user-action table in userActions.ts). Implements `AgentApi` for the VS Code panel, the CLI and
 * tests. What it acts through are its task's parts, wired together by the runtime
 * (runtime/wireAgent.ts): the turns in taskTurns.ts, the plan actions in taskPlans.ts, the turn
 * itself in core/turn. Everything the user sees leaves through `events` as stamped `HostEvent`s;
 * `cards()` is rebuilt from those very events.
 */
import type { Attachment, Card, HostEvent, RoleId, TurnOutcome, RoleRegistry } from '../../protocol';
import type { EventStream } from '../events';
import type { HostPorts } from '../ports/ports';
import type { RoleDef } from '../roles/roles';
import type { AgentSettings } from '../settings/settings';
import type { ReadTracker } from '../tools/readTracker';
import type { ToolRegistry } from '../tools/toolRegistry';
import type { LimitQuestion } from '../turn/limitQuestion';
import type { WorkspacePaths } from '../workspace/workspacePaths';
import type { Planning } from '../plans/planning';
import { recordsFromCards } from '../plans/recordsFromCards';
import { rebuildMessages } from '../history/rebuildMessages';
import type { Conversation, ConversationMessage } from '../context/conversation';
import { resolveMentions } from '../mentions/resolveMentions';
import { withAttachments } from '../mentions/attachmentText';
import type { AgentApi } from './agentApi';
import type { SettingsInForce } from './settingsInForce';
import type { TaskPlans } from './taskPlans';
import type { TaskTurns } from './taskTurns';
import type { TurnInFlight } from './turnInFlight';
import { BUSY, ROLE_NEEDS, taskRow, type ActionTarget, type TaskActionMessage, type TaskActionResult, type TaskActionType, type TaskFiles } from './userActions';

/** What an agent acts through: its task's parts, built and wired together by the runtime. */
export interface AgentParts {
  /** The role it starts in (one of `roles`). */
  role: RoleId;
  /** The roles this agent knows (the product's unless the caller passes its own). */
  roles: RoleRegistry<RoleDef>;
  host: HostPorts;
  /** The task's id, on the snapshot Edit & resend sends. */
  taskId?: string;
  settings: SettingsInForce;
  events: EventStream;
  /** The model's conversation: every change to it goes through its own methods. */
  conversation: Conversation;
  paths: WorkspacePaths;
  reads: ReadTracker;
  planning: Planning;
  /** Execute, Review, Replan and Revise. */
  plans: TaskPlans;
  /** The task's checkpoints (the runtime's), for the revert actions and Edit & resend. */
  files: TaskFiles;
  /** The tools in force; providers may be added or change their tools while the task runs. */
  tools: ToolRegistry;
  /** The tool-call limit's question, while one waits. */
  limit: LimitQuestion;
  inFlight: TurnInFlight;
  turns: TaskTurns;
}

export class Agent implements AgentApi {
  private _role: RoleId;
  readonly events: EventStream;
  readonly planning: Planning;
  readonly plans: TaskPlans;
  readonly files: TaskFiles;
  readonly roles: RoleRegistry<RoleDef>;
  readonly tools: ToolRegistry;
  /** A message's mentions are being read (before its turn starts): a second send must wait like during a run. */
  private attaching = false;

  constructor(private readonly p: AgentParts) {
    this._role = p.role;
    this.events = p.events;
    this.planning = p.planning;
    this.plans = p.plans;
    this.files = p.files;
    this.roles = p.roles;
    this.tools = p.tools;
  }

  get role(): RoleId {
    return this._role;
  }

  get busy(): boolean {
    return this.p.inFlight.busy;
  }

  /** The next request of the role in force before fitting (see TaskTurns.nextRequest): what the context meter measures before one is sent. */
  nextRequest(): ReturnType<TaskTurns['nextRequest']> {
    return this.p.turns.nextRequest();
  }

  /**
   * The one gate of every user action (its row in the user-action table): why it cannot run now,
   * or undefined. A row that needs the task idle is refused while a turn runs, or while a message's
   * mentions are being read before its turn; a row that needs a role is refused when no role here does that.
   */
  private refusal(type: TaskActionType): string | undefined {
    const row = taskRow(type);
    if (row.idle && (this.busy || this.attaching)) return BUSY;
    if (row.needs && !this.roles[row.needs]) return ROLE_NEEDS[row.needs];
    return undefined;
  }

  /** Whether `type` passes its row's gate now; when it does not, its refusal is shown as an error card. */
  private passesGate(type: TaskActionType): boolean {
    const why = this.refusal(type);
    if (why) this.errorCard(why);
    return why === undefined;
  }

  /** What the table's handlers act on: this agent, past the gate. */
  private readonly target: ActionTarget = ((agent: Agent): ActionTarget => ({
    send: (text) => agent.sendNow(text),
    retry: () => agent.p.turns.retry(),
    editMessage: (cardId, text, files) => agent.editMessageNow(cardId, text, files),
    setRole: (role, reason) => agent.setRole(role, reason),
    stop: () => agent.stop(),
    continueAfterLimit: (allow) => agent.continueAfterLimit(allow),
    get plans() { return agent.plans; },
    get files() { return agent.files; },
  }))(this);

  /**
   * A user action: its row's gate, then its handler. The one way in for the chat (through the task
   * runtime), the CLI, the palette and tests alike; a refusal is an error card and the result `error`.
   */
  async act<K extends TaskActionType>(msg: Extract<TaskActionMessage, { type: K }>): TaskActionResult<K> {
    if (!this.passesGate(msg.type)) return 'error';
    const row = taskRow(msg.type);
    return (row.run as (t: ActionTarget, m: TaskActionMessage) => Promise<unknown> | void)(this.target, msg) as Awaited<TaskActionResult<K>>;
  }

  /** The conversation as sent to the model (without the system prompt), read-only. */
  get conversation(): readonly ConversationMessage[] {
    return this.p.conversation.messages;
  }

  /** Notes for the model between turns (a revert): they go in before the next user message. */
  noteToModel(notes: readonly string[]): void {
    this.p.conversation.appendNotes(notes);
  }

  updateSettings(settings: AgentSettings): void {
    this.p.settings.update(settings);
  }

  setRole(role: RoleId, reason?: string): void {
    if (role === this._role) return;
    const to = this.roles.find(role);
    if (!to) {
      this.errorCard(`There is no role "${role}" here (roles: ${this.roles.ids.join(', ')}).`);
      return;
    }
    // The turn in flight was started under the old role; never let it continue under the new one.
    if (this.busy) {
      const from = this.roles.get(this._role).label;
      this.stop();
      this.events.addCard({ kind: 'text', id: this.events.newId('note'), author: 'system', text: `Stopped the ${from}'s run: switched to the ${to.label}.`, ts: Date.now() });
    }
    this._role = role;
    this.events.emit({ type: 'role_changed', role, ...(reason ? { reason } : {}) });
  }

  stop(): void {
    this.p.inFlight.stop();
  }

  continueAfterLimit(allow: boolean): void {
    this.p.limit.answer(allow);
  }

  cards(): Card[] {
    return this.events.cards();
  }

  snapshot(taskId?: string): HostEvent {
    return this.events.snapshot(this._role, taskId);
  }

  /**
   * A user message. Its `@` mentions (and `attach`: files the CLI's --attach names) are read now and
   * attached once, with the editor's context line when the host gives one; the card keeps them.
   * The `send` row with what only the CLI asks for (a plan required, files attached); through the
   * same gate as `act({ type: 'send' })`.
   */
  async send(text: string, opts: { requirePlan?: boolean; attach?: readonly string[] } = {}): Promise<TurnOutcome> {
    return this.passesGate('send') ? this.sendNow(text, opts) : 'error';
  }

  private async sendNow(text: string, opts: { requirePlan?: boolean; attach?: readonly string[] } = {}): Promise<TurnOutcome> {
    const { host, paths, reads } = this.p;
    this.attaching = true;
    let attachments: Attachment[] = [];
    try {
      const resolved = await resolveMentions(text, { host, paths }, { extraFiles: opts.attach, withEditorContext: true });
      for (const r of resolved.reads) reads.record(r.real, r.text);
      attachments = resolved.attachments;
    } catch (e) {
      // Reading the mentions failed as a whole: the message still goes, without them (logged).
      host.logger.warn(`mentions not attached: ${(e as Error).message}`);
    } finally {
      this.attaching = false;
    }
    this.events.addCard({ kind: 'text', id: this.events.newId('user'), author: 'user', text, role: this._role, ...(attachments.length ? { attachments } : {}), ts: Date.now() });
    return this.p.turns.message({ text: withAttachments(text, attachments), role: this._role, requirePlan: opts.requirePlan });
  }

  /**
   * Edit & resend on the user message `cardId`: the task goes back to just before it (that card and
   * every card after it are dropped, the plans are those of the cards kept, the model's
   * conversation is rebuilt from them, and the role the message was sent to is back in force), the
   * files the dropped turns changed are reverted (`files: 'revert'`; when that is refused nothing at
   * all happens, and the chat says why) or kept as they are, the chat and the model are told which,
   * and `text` goes out in its place.
   */
  private async editMessageNow(cardId: string, text: string, files: 'revert' | 'keep'): Promise<TurnOutcome> {
    const card = this.events.card(cardId);
    if (card?.kind !== 'text' || card.author !== 'user') {
      this.errorCard('That message cannot be edited: it is not one of your messages in this task.');
      return 'error';
    }
    const dropped = this.cards().slice(this.cards().findIndex((c) => c.id === cardId));
    const callIds = new Set(dropped.flatMap((c) => (c.kind === 'tool_call' ? [c.call_id] : [])));
    await this.files.settled();
    const changed = this.files.filesChangedBy(callIds);
    let note: { text: string; kind?: 'revert' } | undefined;
    if (changed.length > 0 && files === 'revert') {
      const r = await this.files.revertCalls(callIds, { action: 'edit_message', target: cardId });
      if (!r.ok) return 'error';
      note = { kind: 'revert', text: `You edited an earlier message: the files changed after it were put back (${r.message.replace(/^Reverted /, '').replace(/\.$/, '')}).` };
    } else if (changed.length > 0) {
      note = { text: `You edited an earlier message; the files changed after it were kept as they are now: ${changed.join(', ')}.` };
    }
    // The checkpoints were waited on: a turn started meanwhile (another click) must not be cut under it.
    if (!this.passesGate('edit_message')) return 'error';
    const cards = this.cards();
    const at = cards.findIndex((c) => c.id === cardId);
    const sentAs = (cards[at] as { role?: RoleId }).role;
    const kept = cards.slice(0, at);
    const provenance = Object.fromEntries(this.planning.book.all().map((r) => [r.cardId, r.provenance] as const));
    this.planning.book.restore(recordsFromCards(kept, provenance));
    this.p.turns.forget();
    if (sentAs && this.roles.has(sentAs)) this.setRole(sentAs, 'Edit & resend');
    this.events.emit({ type: 'snapshot', cards: kept, role: this._role, ...(this.p.taskId ? { task_id: this.p.taskId } : {}) });
    if (note) this.events.addCard({ kind: 'text', id: this.events.newId('note'), author: 'system', text: note.text, ...(note.kind ? { note: note.kind } : {}), ts: Date.now() });
    this.p.conversation.restore(rebuildMessages(this.cards(), provenance));
    return this.sendNow(text);
  }

  private errorCard(message: string): void {
    this.events.addCard({ kind: 'error', id: this.events.newId('error'), message, retryable: false, ts: Date.now() });
  }
}
