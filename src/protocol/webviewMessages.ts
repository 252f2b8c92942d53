import * as z from 'zod';
import { ROLE_TABLE, RoleId } from './roles';

/**
 * Webview → host. The webview is untrusted: the host parses each message with `WebviewMessage`
 * and drops (and logs) anything that does not parse. Strings are bounded. `set_role` must name one of
 * `roleIds`, the roles of the host's registry.
 */
const id = z.string().min(1).max(200);

/** A plan step as the card's form edits it; the limits are the plan's own (50 files, 20 commands). */
const stepEditFields = z.object({
  action: z.string().max(2000),
  files: z.array(z.string().max(500)).max(50),
  commands: z.array(z.string().max(500)).max(20),
  check: z.string().max(500).nullable(),
  depends_on: z.array(z.number().int().min(1).max(50)).max(50).nullable().optional(),
});

export function webviewMessageSchema(roleIds: readonly string[]) {
  return z.discriminatedUnion('type', [
    z.object({ type: z.literal('ready'), last_seq: z.number().int().optional() }),
    z.object({ type: z.literal('send'), text: z.string().min(1).max(100_000) }),
    /**
     * `note`: what the user typed with Approve; it goes to the model with the tool's result.
     * `add_to_plan`: an amendment's "Add to the plan" (the host ignores it for an ordinary approval).
     */
    z.object({ type: z.literal('approve'), call_id: id, note: z.string().max(10_000).optional(), add_to_plan: z.boolean().optional() }),
    z.object({ type: z.literal('reject'), call_id: id, reason: z.string().max(10_000).optional() }),
    z.object({ type: z.literal('open_diff'), call_id: id }),
    z.object({ type: z.literal('answer'), card_id: id, value: z.string().min(1).max(10_000) }),
    /** `from_step`: continue a partly done plan from that step (the steps before it stay as they ended). */
    z.object({ type: z.literal('execute_plan'), card_id: id, from_step: z.number().int().min(1).max(50).optional() }),
    /** `step_comments`: the user's notes on single steps, sent together with the feedback (either may be empty, not both). */
    z.object({
      type: z.literal('revise_plan'), card_id: id, feedback: z.string().max(10_000),
      step_comments: z.array(z.object({ step: z.number().int().min(1).max(50), text: z.string().min(1).max(4000) })).max(50).optional(),
    }).refine((m) => m.feedback.trim().length > 0 || (m.step_comments?.length ?? 0) > 0, { message: 'say what should change' }),
    /**
     * "Implement with changes": the user's own edit of the plan before Execute (a step's text, files,
     * commands, check and the steps it needs; steps removed and added), without the Planner. Step
     * numbers are the card's. The host makes it a new plan version, validated as any plan. `check`
     * null removes the step's check; `depends_on` null is the default (the step before it).
     */
    z.object({
      type: z.literal('edit_plan'), card_id: id,
      steps: z.array(stepEditFields.extend({ step_number: z.number().int().min(1).max(50) })).max(50),
      remove: z.array(z.number().int().min(1).max(50)).max(50).optional(),
      insert: z.array(stepEditFields.extend({ after: z.number().int().min(0).max(50) })).max(10).optional(),
    }).refine((m) => m.steps.length + (m.remove?.length ?? 0) + (m.insert?.length ?? 0) > 0, { message: 'say what changes' }),
    /** The plan card's Review: the Reviewer judges that version. */
    z.object({ type: z.literal('review_plan'), card_id: id }),
    /** After a failed step or a `replan` verdict: the Planner proposes the next version, keeping the done steps. */
    z.object({ type: z.literal('replan'), card_id: id }),
    z.object({ type: z.literal('set_role'), role: RoleId.refine((r) => roleIds.includes(r), { message: 'not a role of this host' }) }),
    z.object({ type: z.literal('stop') }),
    z.object({ type: z.literal('retry') }),
    z.object({ type: z.literal('new_task') }),
    /** Checkpoints: undo one tool call's file changes, or the whole task's. */
    z.object({ type: z.literal('revert_call'), call_id: id }),
    z.object({ type: z.literal('revert_task') }),
    z.object({ type: z.literal('continue'), allow: z.boolean() }),
    /** `models`: the model per role id (the host writes only its registry's roles). */
    z.object({
      type: z.literal('save_settings'),
      base_url: z.string().max(2000),
      api_key: z.string().max(2000).optional(),
      models: z.record(RoleId, z.string().max(200)).refine((m) => Object.keys(m).length <= 16, { message: 'at most 16 roles' }),
    }),
    z.object({ type: z.literal('test_connection'), base_url: z.string().max(2000), api_key: z.string().max(2000).optional() }),
    /** The task summary: one file's diff since the task started, and putting that file back. */
    z.object({ type: z.literal('open_file_diff'), path: z.string().min(1).max(4096) }),
    z.object({ type: z.literal('revert_file'), path: z.string().min(1).max(4096) }),
    /** A path on a card (tool card, plan step) was clicked: open that workspace file in the editor. */
    z.object({ type: z.literal('open_file'), path: z.string().min(1).max(4096) }),
    /**
     * The empty chat's recent tasks: continue one (History → Resume in one click). `take_over`: it is
     * held by another window, and the user asked that window to hand it over.
     */
    z.object({ type: z.literal('resume_task'), task_id: id, take_over: z.boolean().optional() }),
    /** An error card's "Set API key": the host shows the setup card. */
    z.object({ type: z.literal('set_api_key') }),
    /** The `@` picker: workspace files and folders matching what was typed after `@`. */
    z.object({ type: z.literal('mention_search'), query: z.string().max(500) }),
    /**
     * Edit & resend on one of the user's messages: the task is cut before it and `text` is sent in
     * its place; the files changed after it are reverted or kept as they are (`files`).
     */
    z.object({ type: z.literal('edit_message'), card_id: id, text: z.string().min(1).max(100_000), files: z.enum(['revert', 'keep']) }),
    /**
     * "Always allow" on a command card: the host adds the entries it derives from that card's
     * command itself (never text from the webview); `remove_allowed_command` takes one back.
     */
    z.object({ type: z.literal('allow_command'), call_id: id }),
    z.object({ type: z.literal('remove_allowed_command'), entry: z.string().min(1).max(2000) }),
    /** A learned card's Forget: the fact is removed from the workspace's facts (the card stays, marked forgotten). */
    z.object({ type: z.literal('forget_fact'), fact_id: z.string().min(1).max(40), card_id: id.optional() }),
    /** The header's model picker: the model for one role (`tandem.model.<role>`). */
    z.object({ type: z.literal('set_model'), role: RoleId.refine((r) => roleIds.includes(r), { message: 'not a role of this host' }), model: z.string().min(1).max(200) }),
  ]);
}

/** The product's webview → host messages (its roles from the role table). */
export const WebviewMessage = /* @__PURE__ */ webviewMessageSchema(/* @__PURE__ */ ROLE_TABLE.map((r) => r.id));
export type WebviewMessage = z.infer<typeof WebviewMessage>;

/** Host → webview messages that are not agent events (UI plumbing). */
export const HostUiMessage = z.discriminatedUnion('type', [
  /** `suggested`: a first model per role from the list (role id → model), for the roles not configured yet. */
  z.object({ type: z.literal('connection_result'), ok: z.boolean(), models: z.array(z.string()).optional(), suggested: z.record(z.string(), z.string()).optional(), error: z.string().optional() }),
  z.object({
    type: z.literal('setup_needed'),
    base_url: z.string().optional(),
    /** The model each role has now (prefilled, not replaced by a suggestion). */
    models: z.record(z.string(), z.string()).optional(),
    /** The endpoint refused the request without a valid key (401): the key is needed, whatever the URL looks like. */
    key_needed: z.boolean().optional(),
  }),
  /** Setup is no longer needed (an endpoint or key arrived after the card was shown): close it. */
  z.object({ type: z.literal('setup_done') }),
  z.object({ type: z.literal('focus_input') }),
  z.object({ type: z.literal('prefill'), text: z.string() }),
  /**
   * A `send` arrived while the agent was busy (the webview thought it idle): nothing was sent, and
   * the text goes back to the webview's queue instead of being lost.
   */
  z.object({ type: z.literal('send_deferred'), text: z.string() }),
  /** The workspace's latest saved tasks, for the empty chat (newest first, a handful). */
  z.object({ type: z.literal('recent_tasks'), tasks: z.array(z.object({ id: z.string(), title: z.string(), updated: z.number(), detail: z.string().max(200).optional() })).max(20) }),
  /** A saved task could not be opened: why, and whether "Take over" may (another window holds it). */
  z.object({ type: z.literal('task_unavailable'), task_id: z.string(), reason: z.string().max(2000), take_over: z.boolean() }),
  /** Another window took this task over: the chat keeps its cards, read-only, and says why (`reason` absent: editable again). */
  z.object({ type: z.literal('read_only'), reason: z.string().max(2000).optional() }),
  /** The `@` picker's answer to `mention_search` (workspace-relative; folders end in `/`), best first. */
  z.object({ type: z.literal('mention_results'), query: z.string(), paths: z.array(z.string()).max(50) }),
  /** Add Selection to Tandem: put this mention (`@path:12-20`) into the composer and focus it, without sending. */
  z.object({ type: z.literal('insert_mention'), text: z.string().max(5000) }),
  /** The command allow-list as it stands (after Always allow, a removal, or a settings change). */
  z.object({ type: z.literal('allow_list'), entries: z.array(z.string()).max(500) }),
  /**
   * The model picker: each role's model in force and the models the endpoint lists (empty when it
   * could not be asked).
   */
  z.object({ type: z.literal('models'), by_role: z.record(RoleId, z.string()), available: z.array(z.string()).max(2000) }),
  /**
   * The context meter: how much of the model's window the last request used, measured as Tandem
   * fitted that request (`known` false: the window is Tandem's assumption, not the model's).
   */
  z.object({ type: z.literal('context_meter'), model: z.string(), used: z.number().int().min(0), window: z.number().int().min(1), known: z.boolean() }),
]);
export type HostUiMessage = z.infer<typeof HostUiMessage>;
