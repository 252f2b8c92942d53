/**
 * `fail_step`: offered to the role that executes plans, only while it executes one. The loop drives the steps and
 * marks each done when its sub-turn ends normally; this is how the Actor says a step could not be
 * done, so the card shows it failed (with the reason) and execution stops for the user to decide.
 */
import * as z from 'zod';
import type { Tool } from './tool';

const input = z.object({ reason: z.string().min(1).max(1000) });

export const failStepTool: Tool<z.infer<typeof input>> = {
  name: 'fail_step',
  description: 'Report why the current plan step cannot be done. Ends the run.',
  input,
  available: ({ role, planning }) => role.executesPlans && !!planning?.execution,
  permissions: [],
  conversational: true,
  readOnly: true,
  display: { kind: 'step', title: 'Fail the step', headline: (i) => ({ verb: `step failed: ${i.reason.slice(0, 100)}` }) },
  async run(i, ctx) {
    if (!ctx.planning?.failCurrentStep(i.reason)) {
      return { content: 'No plan step is running.', isError: true };
    }
    return { content: 'The step is marked failed; the user will decide what to do. End your turn.', endTurn: true };
  },
};
