import type { WebviewMessage } from '../../../src/protocol';

/** What the webview keeps across being hidden and shown: small on purpose (the host owns history). */
export interface PersistedState {
  last_seq?: number;
  scroll_top?: number;
  stick_to_bottom?: boolean;
  /** The card at the top of the view and how far into it the view starts: survives re-measuring. */
  anchor_id?: string;
  anchor_offset?: number;
  draft?: string;
  /** Messages queued while the agent ran, not yet delivered. */
  queue?: { text: string }[];
  /** The plan step open as a form and what is typed in it (ui/cards/PlanStepEditor.tsx). */
  plan_edit?: StepDraft;
}

/** `step` 0 with `after`: a new step, to be added after that one. */
export interface StepDraft { card: string; step: number; fields: string[]; saved?: boolean; after?: number }

interface VsCodeApi {
  postMessage(msg: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare const acquireVsCodeApi: (() => VsCodeApi) | undefined;

/** `acquireVsCodeApi` may be called only once per page; outside VS Code we log instead. */
const api: VsCodeApi =
  typeof acquireVsCodeApi === 'function'
    ? acquireVsCodeApi()
    : { postMessage: (m) => console.log('[tandem → host]', m), getState: () => undefined, setState: () => undefined };

export function postToHost(msg: WebviewMessage): void {
  api.postMessage(msg);
}

export function loadState(): PersistedState {
  const s = api.getState();
  return s && typeof s === 'object' ? (s as PersistedState) : {};
}

let pending: PersistedState | null = null;
let timer: ReturnType<typeof setTimeout> | undefined;

/** Merges and writes the state at most every 200 ms (scrolling calls this a lot). */
export function saveState(patch: PersistedState): void {
  pending = { ...(pending ?? loadState()), ...patch };
  if (timer !== undefined) return;
  timer = setTimeout(() => {
    timer = undefined;
    if (pending) api.setState(pending);
    pending = null;
  }, 200);
}
