/**
 * What each of the host's view messages (setup, connection, recent tasks, notices, the picker's
 * answers, the allow-list, models, the context meter…) changes in the view store: a pure function of
 * the state and the message, so each message's effect is read in one place and unit-tested in Node.
 * `send_deferred` is not here: it puts a message back in the queue, which the session keeps.
 */
import type { HostUiMessage } from '../../../src/protocol';
import { withMention } from '../mentions/withMention';
import { withMentionAnswer, type ViewState } from './viewStore';

export function hostUiPatch(s: ViewState, msg: HostUiMessage): Partial<ViewState> | null {
  switch (msg.type) {
    case 'setup_needed': {
      const setup = { url: msg.base_url, models: msg.models, keyNeeded: msg.key_needed };
      // A key the endpoint refused: the card asks for it, but a model was connected before.
      return msg.key_needed ? { setup } : { setup, unconnected: { url: msg.base_url, models: msg.models } };
    }
    case 'setup_done': return { setup: null, unconnected: null };
    case 'connection_result':
      return { connection: { ok: msg.ok, models: msg.models, suggested: msg.suggested, error: msg.error, tick: (s.connection?.tick ?? 0) + 1 } };
    case 'focus_input': return { focusTick: s.focusTick + 1 };
    case 'prefill': return { draft: msg.text, focusTick: s.focusTick + 1 };
    case 'insert_mention': return { draft: withMention(s.draft, msg.text), focusTick: s.focusTick + 1 };
    case 'recent_tasks': return { recentTasks: msg.tasks };
    case 'task_unavailable':
      return { unavailable: { taskId: msg.task_id, reason: msg.reason, takeOver: msg.take_over, tick: (s.unavailable?.tick ?? 0) + 1 } };
    case 'read_only': return { readOnly: msg.reason ?? null };
    case 'mention_results': return { mentionResults: withMentionAnswer(s.mentionResults, msg.query, msg.paths) };
    case 'allow_list': return { allowList: msg.entries };
    case 'models': return { models: { byRole: msg.by_role, available: msg.available } };
    case 'context_meter': return { meter: { model: msg.model, used: msg.used, window: msg.window, known: msg.known } };
    default: return null;
  }
}
