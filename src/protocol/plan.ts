import { z } from 'zod';

/** The Planner's structured plan. `format_version` pins the shape for history and the CLI. */
export const PlanStep = z.object({
  step_number: z.number().int().min(1),
  action: z.string().min(1).max(2000),
  reason: z.string().max(2000),
  tools_needed: z.array(z.string().max(64)).max(12),
  estimated_time: z.string().max(64),
  files: z.array(z.string().max(500)).max(50),
});
export type PlanStep = z.infer<typeof PlanStep>;

export const Plan = z.object({
  format_version: z.literal('1.0'),
  goal: z.string().min(1).max(2000),
  steps: z.array(PlanStep).max(50),
  estimated_total_time: z.string().max(64),
  risks: z.array(z.string().max(1000)).max(20),
  prerequisites: z.array(z.string().max(1000)).max(20),
});
export type Plan = z.infer<typeof Plan>;

export const StepState = z.enum(['pending', 'running', 'done', 'failed']);
export type StepState = z.infer<typeof StepState>;
