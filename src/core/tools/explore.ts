/**
 * `explore`: the Planner hands a question to a read-only explorer — a child agent with its own
 * conversation and only read tools — and gets back its summary, so a wide look around the
 * workspace costs the Planner's context one answer instead of every file read. The child is run
 * by the task (turn/explorers.ts) through its port (explorerPort.ts); it never has more permission than its
 * parent, and its requests are counted under the parent's role.
 */
import * as z from 'zod';
import type { Tool } from './tool';

const input = z.object({ question: z.string().min(1).max(2000) });
type Input = z.infer<typeof input>;

export const exploreTool: Tool<Input> = {
  name: 'explore',
  // Terse: every Planner request carries it (prompt budget).
  description: 'Read-only helper: researches a question in its own context, returns a summary.',
  input,
  // The bare shape (the length limits are checked on the arguments): fewer tokens in every request.
  parameters: { type: 'object', properties: { question: { type: 'string' } }, required: ['question'] },
  available: ({ role }) => role.mayPlan,
  // The Planner's helper, not work on the workspace: a plan step never names it, and an explorer never gets it.
  conversational: true,
  permissions: ['read'],
  // It changes nothing, so several explore calls in one message run side by side (at most the setting's number at once).
  readOnly: true,
  display: {
    kind: 'find', title: 'Explore',
    headline: (i) => ({ verb: 'Explore', done: 'Explored', detail: i.question.slice(0, 200), summary: `explore: ${i.question.slice(0, 120)}` }),
  },
  async run(i, ctx) {
    if (!ctx.explorers) return { content: 'Explorers are turned off here; read the files yourself.', isError: true };
    const r = await ctx.explorers.explore(i.question, ctx.signal);
    // The card shows what the explorer looked at; the model gets the summary alone.
    const looked = r.calls.length ? `\n\n${r.calls.length} call${r.calls.length === 1 ? '' : 's'}: ${r.calls.join('; ')}` : '';
    return { content: r.summary, display: r.summary + looked, ...(r.ok ? {} : { isError: true }) };
  },
};
