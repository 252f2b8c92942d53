import { z } from 'zod';
import { ROLE_TABLE, RoleId } from './roles';

/**
 * Webview → host. The webview is untrusted: the host parses each message with `WebviewMessage`
 * and drops (and logs) anything that does not parse. Strings are bounded. `set_role` must name one of
 * `roleIds`, the roles of the host's registry.
 */
const id = z.string().min(1).max(200);

export function webviewMessageSchema(roleIds: readonly string[]) {
  return z.discriminatedUnion('type', [
    z.object({ type: z.literal('ready'), last_seq: z.number().int().optional() }),
    z.object({ type: z.literal('send'), text: z.string().min(1).max(100_000) }),
    z.object({ type: z.literal('approve'), call_id: id }),
    z.object({ type: z.literal('reject'), call_id: id, reason: z.string().max(2000).optional() }),
    z.object({ type: z.literal('open_diff'), call_id: id }),
    z.object({ type: z.literal('answer'), card_id: id, value: z.string().min(1).max(10_000) }),
    z.object({ type: z.literal('execute_plan'), card_id: id }),
    z.object({ type: z.literal('revise_plan'), card_id: id, feedback: z.string().min(1).max(10_000) }),
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
  ]);
}

/** The product's webview → host messages (its roles from the role table). */
export const WebviewMessage = webviewMessageSchema(ROLE_TABLE.map((r) => r.id));
export type WebviewMessage = z.infer<typeof WebviewMessage>;

/** Host → webview messages that are not agent events (UI plumbing). */
export const HostUiMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('connection_result'), ok: z.boolean(), models: z.array(z.string()).optional(), error: z.string().optional() }),
  z.object({ type: z.literal('setup_needed'), base_url: z.string().optional() }),
  /** Setup is no longer needed (an endpoint or key arrived after the card was shown): close it. */
  z.object({ type: z.literal('setup_done') }),
  z.object({ type: z.literal('focus_input') }),
  z.object({ type: z.literal('prefill'), text: z.string() }),
]);
export type HostUiMessage = z.infer<typeof HostUiMessage>;
