/**
 * One task's agent run, as a user would drive it with every prompt approved:
 *  - `plan`: the Planner's turn must end with a plan; the Reviewer judges it (its verdict is kept,
 *    and the plan is executed whatever it says, as "Execute anyway" would); the Actor carries out
 *    the steps with their checks; when a step fails, the Planner replans (up to `replans` times)
 *    and the run continues from the first step not done;
 *  - `act`: the Actor alone, on the prompt.
 * The time limit stops the agent as Stop would. What happened is read afterwards from the cards.
 */
import type { Card, TurnOutcome } from '../../protocol';
import { PRODUCT_REGISTRIES } from '../registries/registries';
import { startTask, type TaskPorts } from '../runtime/runningTask';

export const EVAL_FLOWS = ['plan', 'act'] as const;
export type EvalFlow = (typeof EVAL_FLOWS)[number];

export type EvalStop = 'budget' | 'time' | 'tool_calls';

export interface EvalAgentRun {
  outcome: TurnOutcome;
  /** The plan flow ended without a valid plan. */
  noPlan?: boolean;
  /** A limit ended the run. */
  stop?: EvalStop;
  /** The last error the chat showed (an endpoint failure, a plan that never validated). */
  lastError?: string;
  cards: Card[];
}

export interface EvalAgentOptions {
  flow: EvalFlow;
  prompt: string;
  /** Wall-clock limit for the agent's part. */
  timeLimitMs: number;
  /** Replans allowed after a failed step (plan flow). */
  replans?: number;
  /** Aborts the run from outside (Ctrl-C). */
  signal?: AbortSignal;
}

export async function runEvalAgent(ports: TaskPorts, o: EvalAgentOptions): Promise<EvalAgentRun> {
  const roles = (ports.registries ?? PRODUCT_REGISTRIES).roles;
  const planner = roles.planner;
  const executor = roles.executor;
  if (!executor || (o.flow === 'plan' && !planner)) throw new Error(`the ${o.flow} flow needs a role that ${o.flow === 'plan' ? 'plans' : 'executes'}`);
  const task = startTask(ports, { sink: () => {}, role: o.flow === 'plan' ? planner!.id : executor.id });
  const agent = task.agent;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    agent.stop();
  }, o.timeLimitMs);
  const onAbort = () => agent.stop();
  o.signal?.addEventListener('abort', onAbort, { once: true });
  let outcome: TurnOutcome = 'error';
  let noPlan = false;
  try {
    if (o.flow === 'act') {
      outcome = await agent.send(o.prompt);
    } else {
      outcome = await agent.send(o.prompt, { requirePlan: true });
      const record = agent.planning.book.latest();
      if (outcome !== 'done' || !record?.plan) {
        noPlan = true;
      } else {
        if (roles.reviewer && !timedOut) await agent.act({ type: 'review_plan', card_id: record.cardId });
        outcome = timedOut ? 'stopped' : await agent.act({ type: 'execute_plan', card_id: record.cardId });
        for (let left = o.replans ?? 1; left > 0 && !timedOut && (outcome === 'done' || outcome === 'error'); left--) {
          const ran = agent.planning.book.get(agent.planning.lastExecutedCardId ?? record.cardId);
          if (!ran?.plan || ran.plan.steps.every((s) => ran.stepStates[String(s.step_number)] === 'done')) break;
          const before = agent.planning.book.latest();
          if ((await agent.act({ type: 'replan', card_id: ran.cardId })) !== 'done') break;
          const next = agent.planning.book.latest();
          if (!next?.plan || next === before) break;
          const fromStep = next.plan.steps.find((s) => next.stepStates[String(s.step_number)] !== 'done')?.step_number;
          if (fromStep === undefined) break;
          outcome = await agent.act({ type: 'execute_plan', card_id: next.cardId, from_step: fromStep });
        }
      }
    }
  } finally {
    clearTimeout(timer);
    o.signal?.removeEventListener('abort', onAbort);
    await task.close();
  }
  const cards = agent.cards();
  const errors = cards.filter((c): c is Extract<Card, { kind: 'error' }> => c.kind === 'error');
  const stop: EvalStop | undefined = timedOut ? 'time' : task.budget.budget.state === 'exceeded' ? 'budget' : outcome === 'limit' ? 'tool_calls' : undefined;
  return {
    outcome,
    ...(noPlan ? { noPlan } : {}),
    ...(stop ? { stop } : {}),
    ...(errors.length ? { lastError: errors[errors.length - 1]!.message } : {}),
    cards,
  };
}
