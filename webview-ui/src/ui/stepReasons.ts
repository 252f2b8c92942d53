/**
 * step_failed reasons live in the store, not on the card (the card schema has no field for them);
 * the plan card reads them through this small indirection so it needs no store prop.
 */
let lookup: (key: string) => string | undefined = () => undefined;

export function setStepReasonLookup(fn: (key: string) => string | undefined): void {
  lookup = fn;
}

export function stepReasonFor(planId: string, step: number): string | undefined {
  return lookup(`${planId}#${step}`);
}
