import * as z from 'zod';

/** A structured question from either role; the turn waits for the answer. */
export const QuestionOption = z.object({
  label: z.string().min(1).max(200),
  value: z.string().min(1).max(200),
  description: z.string().max(1000).optional(),
});

export const Question = z.object({
  question: z.string().min(1).max(2000),
  context: z.string().max(4000).optional(),
  severity: z.enum(['critical', 'major', 'minor']),
  options: z.array(QuestionOption).min(2).max(5),
  default: z.string().min(1),
  allow_custom: z.boolean(),
}).refine((q) => q.options.some((o) => o.value === q.default), {
  message: '`default` must be one of the option values',
  path: ['default'],
});
export type Question = z.infer<typeof Question>;
