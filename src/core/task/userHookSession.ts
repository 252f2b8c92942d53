/**
 * The user's own hook commands as one task meets them: the hooks in force for the turn in flight
 * (asked of the host as each turn starts: the editor may first ask whether to trust a repository's),
 * SessionStart before the task's first prompt, UserPromptSubmit on every prompt, and where in the
 * task a hook runs (its stdin's session_id, tandem_role, plan_step).
 */
import type { RoleId } from '../../protocol';
import type { EventStream } from '../events';
import type { DispatchEnv } from '../turn/dispatcher';
import type { HookScope, UserHooks, UserHooksSource } from '../userHooks/userHooks';
import { PROMPT_BLOCKED } from '../history/rebuildMessages';
import { maskSecret } from '../secrets/secretMask';

export interface UserHookSessionDeps {
  /** The hooks the host has in force (none: no hook runs). */
  source?: UserHooksSource;
  events: EventStream;
  /** The task's id: the hooks' session_id (a task without one, history off, gets a made-up id). */
  taskId?: string;
  /** A resumed task starts its session as 'resume', a new one as 'startup'. */
  resumed: boolean;
  role(): RoleId;
  /** The plan step running now, if any. */
  step(): number | undefined;
  /** Kept out of every note a hook's output makes. */
  apiKey(): string;
}

export class UserHookSession {
  private hooks: UserHooks | undefined;
  private started = false;
  private readonly sessionId: string;

  constructor(private readonly d: UserHookSessionDeps) {
    this.sessionId = d.taskId ?? `tandem-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  }

  /** A turn starts (a message, a plan run, a retry): the hooks in force for it. */
  async beginTurn(ui: { waiting(detail: string): void }): Promise<void> {
    this.hooks = await this.d.source?.(ui);
  }

  /** Where the user's hooks run in this task. */
  scope(): Omit<HookScope, 'signal'> {
    const step = this.d.step();
    return { sessionId: this.sessionId, role: this.d.role(), ...(step ? { planStep: step } : {}) };
  }

  /** The hooks for the tool calls of the turn in flight, seen from `scope` (none in force: undefined). */
  forCalls(scope: () => Omit<HookScope, 'signal'> = () => this.scope()): DispatchEnv['userHooks'] {
    return this.hooks ? { hooks: this.hooks, scope } : undefined;
  }

  /**
   * SessionStart (the task's first prompt) and UserPromptSubmit on a prompt: the text to send with
   * what they added, or undefined when one blocked it (said in the chat).
   */
  async prompt(text: string, signal: AbortSignal): Promise<string | undefined> {
    const hooks = this.hooks;
    if (!hooks) return text;
    const scope = { ...this.scope(), signal };
    const contexts: string[] = [];
    const failed = (warnings: readonly string[]) => { for (const w of warnings) this.note(`Hook failed: ${w}`, 'hook_failed'); };
    if (!this.started) {
      this.started = true;
      const start = await hooks.sessionStart(this.d.resumed ? 'resume' : 'startup', scope);
      failed(start.warnings);
      if (start.context) contexts.push(start.context);
    }
    const submit = await hooks.userPromptSubmit(text, scope);
    failed(submit.warnings);
    if (submit.block !== undefined) {
      // 'prompt_blocked' keeps the prompt out of a resumed conversation too (rebuildMessages).
      this.d.events.addCard({ kind: 'error', id: this.d.events.newId('error'), message: `Blocked by hook: ${submit.block}`, retryable: false, failure: PROMPT_BLOCKED, ts: Date.now() });
      return undefined;
    }
    if (submit.context) contexts.push(submit.context);
    if (!contexts.length) return text;
    const added = contexts.join('\n');
    this.note(`Your hooks added context: ${added}`, 'hook');
    return `${text}\n\n[Context from your hooks]\n${added}`;
  }

  private note(text: string, note: 'hook' | 'hook_failed'): void {
    this.d.events.addCard({ kind: 'text', id: this.d.events.newId('note'), author: 'system', note, text: maskSecret(text, this.d.apiKey()), ts: Date.now() });
  }
}
