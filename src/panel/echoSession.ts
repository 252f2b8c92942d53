import type { Card, RoleId, WebviewMessage } from '../protocol';
import type { Logger } from '../core/ports';
import type { AgentApi, TurnOutcome } from '../core/agent/agentApi';
import { EventStream } from '../core/events/eventStream';
import type { ChatSession, PanelOutbound, Unsubscribe } from './chatSession';
import { Listeners } from './listeners';

/**
 * The chat without a model behind it: every message the user sends comes back as their own text
 * card, roles switch, New task clears. It is what the panel runs on until the agent-backed session
 * is wired in, and what the UI tests drive to prove the host ↔ webview round trip. It honours the
 * Agent's API so the palette commands work against it unchanged.
 */
export class EchoSession implements ChatSession, AgentApi {
  private readonly outbound = new Listeners<PanelOutbound>();
  private readonly roleChanged = new Listeners<RoleId>();
  private tasks = 0;
  private stream: EventStream;
  private currentRole: RoleId;

  constructor(private readonly log: Logger, role: RoleId = 'planner') {
    this.currentRole = role;
    this.stream = this.newStream();
  }

  get role(): RoleId { return this.currentRole; }

  onOutbound(listener: (msg: PanelOutbound) => void): Unsubscribe { return this.outbound.add(listener); }
  onRoleChanged(listener: (role: RoleId) => void): Unsubscribe { return this.roleChanged.add(listener); }

  setRole(role: RoleId, reason?: string): void {
    if (role === this.currentRole) return;
    this.currentRole = role;
    this.stream.emit({ type: 'role_changed', role, ...(reason ? { reason } : {}) });
    this.roleChanged.fire(role);
  }

  newTask(): void {
    this.stream = this.newStream();
    this.outbound.fire(this.stream.snapshot(this.currentRole, this.taskId()));
  }

  async send(text: string): Promise<TurnOutcome> {
    this.stream.addCard({ kind: 'text', id: this.stream.newId('text'), author: 'user', text, role: this.currentRole, ts: Date.now() });
    this.stream.emit({ type: 'turn_ended', outcome: 'done' });
    return 'done';
  }

  async executePlan(): Promise<TurnOutcome> {
    this.setRole('actor', 'Execute plan');
    return 'done';
  }

  async revisePlan(_planCardId: string, feedback: string): Promise<TurnOutcome> {
    return this.send(feedback);
  }

  continueAfterLimit(): void {}

  stop(): void {
    this.stream.emit({ type: 'turn_ended', outcome: 'stopped' });
  }

  cards(): Card[] { return this.stream.cards(); }

  updateSettings(): void {}

  async handle(msg: WebviewMessage): Promise<void> {
    switch (msg.type) {
      case 'ready':
        this.outbound.fire(this.stream.snapshot(this.currentRole, this.taskId()));
        return;
      case 'send':
        await this.send(msg.text);
        return;
      case 'set_role':
        this.setRole(msg.role, 'switched by you');
        return;
      case 'new_task':
        this.newTask();
        return;
      case 'stop':
        this.stop();
        return;
      default:
        this.log.info(`chat: "${msg.type}" has no effect until the agent is connected`);
    }
  }

  private taskId(): string { return `task-${this.tasks}`; }

  private newStream(): EventStream {
    this.tasks++;
    return new EventStream((e) => this.outbound.fire(e), `t${this.tasks}-`);
  }
}
