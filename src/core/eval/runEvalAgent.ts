/**
 * One task's agent run, as a user would drive it with every prompt approved:
 *  - `plan`: the Planner's turn must end with a plan; the Reviewer judges it. A verdict other than
 *    ok is acted on as a user of the chat would, never run past: its reasons and concerns go back
 *    to the Planner as Revise feedback (up to `replans` times) and the new version is judged again;
 *    a plan the Reviewer still objects to (or gave no valid verdict on) is not executed, and the
 *    run says so (`rejected`). The Actor carries out an approved plan's steps with their checks;
 *    when a step fails, the Planner replans (up to `replans` times) and the run continues from the
 *    first step not done;
 *  - `act`: the Actor alone, on the prompt.
 * The time limit stops the agent as Stop would. What happened is read afterwards from the cards.
 */
import type { Card, ReviewVerdict, TurnOutcome } from '../../protocol';
import { PRODUCT_REGISTRIES } from '../registries/registries';
import { startTask, type TaskPorts } from '../runtime/runningTask';

export const EVAL_FLOWS = ['plan', 'act'] as const;
export type EvalFlow = (typeof EVAL_FLOWS)[number];

export type EvalStop = 'budget' | 'time' | 'tool_calls';

export interface EvalAgentRun {
  outcome: TurnOutcome;
  /** The plan flow ended without a valid plan. */
  noPlan?: boolean;
  /** The Reviewer objected to the last plan version (after the revisions allowed), which therefore never ran: why. */
  rejected?: string;
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
  /** Replans allowed after a failed step, and revisions after the Reviewer objects to a plan (plan flow). */
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
  let rejected: string | undefined;
  try {
    if (o.flow === 'act') {
      outcome = await agent.send(o.prompt);
    } else {
      outcome = await agent.send(o.prompt, { requirePlan: true });
      let record = agent.planning.book.latest();
      if (outcome === 'done' && record?.plan && roles.reviewer) {
        // The Reviewer judges each version; an objection goes back to the Planner as Revise would take it.
        for (let left = o.replans ?? 1; !timedOut; left--) {
          await agent.act({ type: 'review_plan', card_id: record.cardId });
          const review = agent.planning.book.get(record.cardId)?.review;
          if (review?.verdict?.verdict === 'ok') break;
          if (left <= 0 || !review?.verdict) {
            rejected = review?.verdict
              ? `the Reviewer objected to plan v${record.version} (${review.verdict.verdict}): ${review.verdict.reasons.join(' ')}`
              : `the Reviewer gave no valid verdict on plan v${record.version}${review?.error ? ` (${review.error})` : ''}`;
            break;
          }
          const feedback = reviseFeedback(review.verdict);
          outcome = await agent.act({ type: 'revise_plan', card_id: record.cardId, feedback: feedback.text, step_comments: feedback.steps });
          const next = agent.planning.book.latest();
          if (outcome !== 'done' || !next?.plan || next === record) {
            record = next;
            break;
          }
          record = next;
        }
      }
      if (outcome !== 'done' || !record?.plan) {
        noPlan = true;
      } else if (!rejected) {
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
    ...(rejected ? { rejected } : {}),
    ...(stop ? { stop } : {}),
    ...(errors.length ? { lastError: errors[errors.length - 1]!.message } : {}),
    cards,
  };
}

/** The Reviewer's objection in the words a user's Revise would carry: the reasons, and each concern on its step. */
function reviseFeedback(v: ReviewVerdict): { text: string; steps: { step: number; text: string }[] } {
  const general = v.concerns.filter((c) => c.step == null).map((c) => `- ${c.file ? `${c.file}${c.line ? `:${c.line}` : ''}: ` : ''}${c.text}`);
  const text = [`The Reviewer asks for changes: ${v.reasons.join(' ')}`, ...general].join('\n').slice(0, 10_000);
  return { text, steps: v.concerns.filter((c) => c.step != null).map((c) => ({ step: c.step!, text: c.text.slice(0, 4_000) })) };
}
