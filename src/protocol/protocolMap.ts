import type { HostEvent } from './events';
import type { HostUiMessage, WebviewMessage } from './webviewMessages';

type Request<K extends WebviewMessage['type']> = Extract<WebviewMessage, { type: K }>;
type Ui<K extends HostUiMessage['type']> = Extract<HostUiMessage, { type: K }>;
type Snapshot = Extract<HostEvent, { type: 'snapshot' }>;

/**
 * Every webview → host message beside what its handler answers with (Continue's protocol map
 * style). The answer is posted straight back to the webview; `void` means the effect arrives as
 * the task's `HostEvent`s instead (a sent message becomes cards, a stop ends the turn).
 */
export interface ProtocolMap {
  /** The webview (re)loaded: the whole visible state (the setup card, when needed, follows as its own message). */
  ready: [Request<'ready'>, Snapshot];
  send: [Request<'send'>, void];
  approve: [Request<'approve'>, void];
  reject: [Request<'reject'>, void];
  open_diff: [Request<'open_diff'>, void];
  answer: [Request<'answer'>, void];
  execute_plan: [Request<'execute_plan'>, void];
  revise_plan: [Request<'revise_plan'>, void];
  /** The plan as the user edited it becomes the next version (or the card says why not). */
  edit_plan: [Request<'edit_plan'>, void];
  review_plan: [Request<'review_plan'>, void];
  replan: [Request<'replan'>, void];
  set_role: [Request<'set_role'>, void];
  stop: [Request<'stop'>, void];
  retry: [Request<'retry'>, void];
  new_task: [Request<'new_task'>, void];
  revert_call: [Request<'revert_call'>, void];
  revert_task: [Request<'revert_task'>, void];
  continue: [Request<'continue'>, void];
  save_settings: [Request<'save_settings'>, Ui<'connection_result'>];
  test_connection: [Request<'test_connection'>, Ui<'connection_result'>];
  open_file_diff: [Request<'open_file_diff'>, void];
  revert_file: [Request<'revert_file'>, void];
  open_file: [Request<'open_file'>, void];
  resume_task: [Request<'resume_task'>, void];
  /** An error card's Set API key: the setup card (even when setup does not look needed). */
  set_api_key: [Request<'set_api_key'>, Ui<'setup_needed'> | void];
  mention_search: [Request<'mention_search'>, Ui<'mention_results'>];
  edit_message: [Request<'edit_message'>, void];
  /** The allow-list as it stands after the change. */
  allow_command: [Request<'allow_command'>, Ui<'allow_list'> | void];
  remove_allowed_command: [Request<'remove_allowed_command'>, Ui<'allow_list'> | void];
  forget_fact: [Request<'forget_fact'>, void];
  /** The models in force after the change. */
  set_model: [Request<'set_model'>, Ui<'models'> | void];
}

/** One handler per message type, typed by the map: a missing or misspelt entry does not compile. */
export type WebviewHandlers = {
  [K in keyof ProtocolMap]: (msg: ProtocolMap[K][0]) => ProtocolMap[K][1] | Promise<ProtocolMap[K][1]>;
};

export type WebviewReply = HostEvent | HostUiMessage;

/** The map names each webview message exactly once: these fail to compile when the two drift apart. */
type Assert<T extends true> = T;
export type ProtocolMapCoversEveryMessage = Assert<WebviewMessage['type'] extends keyof ProtocolMap ? true : false>;
export type ProtocolMapHasNoStrayEntry = Assert<keyof ProtocolMap extends WebviewMessage['type'] ? true : false>;

/**
 * Runs the message's handler and posts its answer. A handler that answers at once is posted at
 * once, in the same tick: a snapshot must leave before any event stamped after it.
 */
export async function dispatchWebviewMessage(handlers: WebviewHandlers, msg: WebviewMessage, post: (reply: WebviewReply) => void): Promise<void> {
  const handler = handlers[msg.type] as (m: WebviewMessage) => WebviewReply | void | PromiseLike<WebviewReply | void>;
  const result = handler(msg);
  const answer = isThenable(result) ? await result : result;
  if (answer) post(answer);
}

function isThenable<T>(x: T | PromiseLike<T>): x is PromiseLike<T> {
  return typeof (x as { then?: unknown } | null | undefined)?.then === 'function';
}
