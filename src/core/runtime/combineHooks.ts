import type { AgentHooks } from '../turn/turnHooks';

/**
 * One set of agent hooks from the parts' hooks: each notification goes to every part that listens,
 * in the order given. `beforeChange` awaits each in turn; `fitContext` may come from one part only
 * (two fitters would each undo the other's work).
 */
export function combineHooks(...parts: (AgentHooks | undefined)[]): AgentHooks {
  const all = parts.filter((p): p is AgentHooks => p !== undefined);
  const fitters = all.filter((p) => p.fitContext);
  if (fitters.length > 1) throw new Error('combineHooks: more than one part fits the context');
  const each = <K extends keyof AgentHooks>(key: K) => all.map((p) => p[key]).filter((f): f is NonNullable<AgentHooks[K]> => f !== undefined);
  const onEvent = each('onEvent');
  const beforeChange = each('beforeChange');
  const onToolCallSettled = each('onToolCallSettled');
  const onUsage = each('onUsage');
  const onTurnEnded = each('onTurnEnded');
  return {
    ...(onEvent.length ? { onEvent: (e) => { for (const f of onEvent) f(e); } } : {}),
    ...(beforeChange.length ? { beforeChange: async (abs, callId) => { for (const f of beforeChange) await f(abs, callId); } } : {}),
    ...(onToolCallSettled.length ? { onToolCallSettled: (c) => { for (const f of onToolCallSettled) f(c); } } : {}),
    ...(onUsage.length ? { onUsage: (u) => { for (const f of onUsage) f(u); } } : {}),
    ...(onTurnEnded.length ? { onTurnEnded: (o) => { for (const f of onTurnEnded) f(o); } } : {}),
    ...(fitters[0] ? { fitContext: fitters[0].fitContext } : {}),
  };
}
