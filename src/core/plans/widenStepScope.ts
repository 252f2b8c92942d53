/**
 * The plan an amendment's "Add to the plan" makes: the same plan with one step's `files` and/or
 * `commands` widened by what the step asked for, and the change in words ("step 3 files: + src/b.ts")
 * for the new version's card and the amendment card. Entries already there are not repeated; the
 * schema's caps (50 files, 20 commands) hold, else nothing is added.
 */
import type { Plan } from '../../protocol';
import type { ScopeAddition } from './stepScope';

const MAX_FILES = 50;
const MAX_COMMANDS = 20;

export function widenStepScope(plan: Plan, stepNumber: number, add: ScopeAddition): { plan: Plan; change: string } | undefined {
  const step = plan.steps.find((s) => s.step_number === stepNumber);
  if (!step) return undefined;
  const newFiles = (add.files ?? []).filter((f) => !step.files.includes(f));
  const newCommands = (add.commands ?? []).filter((c) => !(step.commands ?? []).includes(c));
  if (!newFiles.length && !newCommands.length) return undefined;
  const files = [...step.files, ...newFiles];
  const commands = [...(step.commands ?? []), ...newCommands];
  if (files.length > MAX_FILES || commands.length > MAX_COMMANDS) return undefined;
  const widened = { ...step, files, ...(newCommands.length || step.commands ? { commands } : {}) };
  const parts = [
    ...(newFiles.length ? [`step ${stepNumber} files: + ${newFiles.join(', ')}`] : []),
    ...(newCommands.length ? [`step ${stepNumber} commands: + ${newCommands.join(', ')}`] : []),
  ];
  return { plan: { ...plan, steps: plan.steps.map((s) => (s.step_number === stepNumber ? widened : s)) }, change: parts.join('; ') };
}
