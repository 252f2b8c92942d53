import * as vscode from 'vscode';
import type { HostUiMessage, WebviewHandlers } from '../../protocol';
import type { Logger } from '../../core/ports/ports';
import type { HostActionType } from '../../core/task/userActions';
import type { DiffApprover } from './diffApprover';
import type { PanelQuestionAsker } from './questionAsker';
import type { ApiKeyStore } from './secrets';
import { listModels } from './connection';
import { suggestModels } from './suggestModels';
import { PRODUCT_ROLE_INFO } from '../../protocol';
import { endpointNeedsKey } from '../../protocol/endpointNeedsKey';
import { hasExplicitBaseUrl, readAgentSettings, saveEndpointSettings } from './settings';

/** Names only rows the user-action table gives the editor (`by: 'host'`): any other name does not compile. */
type HostRows<T extends HostActionType> = T;
/** The host rows answered here: approvals, answers and the first-run setup card (agentSession.ts answers the rest). */
export type HostMessageType = HostRows<'approve' | 'reject' | 'open_diff' | 'answer' | 'test_connection' | 'save_settings'>;

/**
 * Handlers for the messages the editor answers. A click for a call or card that is not waiting
 * (stale, duplicated or forged) is logged and ignored.
 */
export function hostMessageHandlers(deps: {
  approver: DiffApprover;
  asker: PanelQuestionAsker;
  keys: ApiKeyStore;
  logger: Logger;
}): Pick<WebviewHandlers, HostMessageType> {
  const { approver, asker, logger, keys } = deps;
  return {
    approve: (msg) => {
      if (!approver.approve(msg.call_id, msg.note, msg.add_to_plan)) logger.warn(`approve for ${msg.call_id}: nothing is waiting on it`);
    },
    reject: (msg) => {
      if (!approver.reject(msg.call_id, msg.reason)) logger.warn(`reject for ${msg.call_id}: nothing is waiting on it`);
    },
    open_diff: async (msg) => {
      if (!(await approver.openDiff(msg.call_id))) logger.warn(`open_diff for ${msg.call_id}: no proposal is open`);
    },
    answer: (msg) => {
      if (!asker.answer(msg.card_id, msg.value)) logger.warn(`answer for ${msg.card_id}: no such question waits, or the answer is not one of its options`);
    },
    test_connection: async (msg) => {
      // The base URL comes from the webview, which is untrusted: the stored key goes only to the
      // endpoint it is configured for (where every request sends it anyway). Otherwise a forged
      // `test_connection` naming any URL would receive the key in its Authorization header.
      const typed = msg.api_key?.trim();
      const configured = readAgentSettings('').baseURL;
      const storedKeyAllowed = !typed && sameEndpoint(msg.base_url, configured);
      const key = typed || (storedKeyAllowed ? await keys.get() : '');
      const r = await listModels(msg.base_url, key);
      if (r.ok) return { type: 'connection_result', ok: true, models: r.models, suggested: suggestModels(r.models, PRODUCT_ROLE_INFO.ids) };
      const withoutKey = !typed && !storedKeyAllowed && r.status === 401
        ? ` Tested without an API key: the stored key is only sent to the configured endpoint (${configured}). Enter the key for this endpoint to test it.`
        : '';
      return { type: 'connection_result', ok: false, error: `${r.error}${withoutKey}` };
    },
    save_settings: async (msg) => {
      if (msg.api_key?.trim()) await keys.set(msg.api_key);
      await saveEndpointSettings(msg.base_url, msg.models);
      logger.info(`endpoint saved: ${msg.base_url} (${Object.entries(msg.models).map(([role, model]) => `${role} ${model}`).join(', ')})`);
      return { type: 'connection_result', ok: true };
    },
  };
}

/**
 * Whether the chat should show the setup card: nothing chosen yet — no endpoint set by the user and
 * no key stored — or no key for an endpoint that needs one (a hosted API: every request would go out
 * with a placeholder and fail with 401, which the user would learn only from the error).
 */
export async function setupNeeded(keys: ApiKeyStore): Promise<boolean> {
  const key = await keys.get();
  if (key) return false;
  if (!hasExplicitBaseUrl()) return true;
  return endpointNeedsKey(readAgentSettings('').baseURL);
}

/** The `setup_needed` message for the panel, when setup is needed. */
export async function setupMessage(keys: ApiKeyStore, opts: { force?: boolean; keyNeeded?: boolean } = {}): Promise<Extract<HostUiMessage, { type: 'setup_needed' }> | undefined> {
  // `force`: an error card's Set API key asks for the card even when setup does not look needed.
  if (!opts.force && !(await setupNeeded(keys))) return undefined;
  const config = vscode.workspace.getConfiguration('tandem');
  if (!hasExplicitBaseUrl(config)) return { type: 'setup_needed', ...(opts.keyNeeded ? { key_needed: true } : {}) };
  // Configured already: the card opens on what is in force, models too (a key is all that is missing).
  const s = readAgentSettings('', config);
  const models = Object.fromEntries(Object.entries(s.models).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1].trim() !== ''));
  return { type: 'setup_needed', base_url: s.baseURL, models, ...(opts.keyNeeded ? { key_needed: true } : {}) };
}

/** Base URLs compared as they are saved (trimmed, without trailing slashes), otherwise exactly. */
export function sameEndpoint(a: string, b: string): boolean {
  const norm = (u: string) => u.trim().replace(/\/+$/, '');
  return norm(a) !== '' && norm(a) === norm(b);
}


