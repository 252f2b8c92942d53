/**
 * Whether a turn is running, for cards that must not start another one (Execute plan): the store
 * knows, and cards read it through this small indirection so they need no store prop. Rows holding
 * such cards are re-rendered when it changes (App's extraFor).
 */
let lookup: () => boolean = () => false;

export function setAgentBusyLookup(fn: () => boolean): void {
  lookup = fn;
}

export function agentBusy(): boolean {
  return lookup();
}
