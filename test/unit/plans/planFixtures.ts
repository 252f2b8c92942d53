import { HostEvent } from '../../../src/protocol';
import type { CliRun } from '../../support/cliRunner';
import { EventStream } from '../../../src/core/events';
import type { Logger } from '../../../src/core/ports/ports';

/** A plan that passes every check (files are relative, so inside any workspace). */
export function goodPlan(overrides: Record<string, unknown> = {}): any {
  return {
    format_version: '1.0',
    goal: 'Add a --verbose flag to the CLI',
    steps: [
      { step_number: 1, action: 'In src/args.ts add verbose to Options and parse --verbose', reason: 'accept the flag', tools_needed: ['read_file', 'edit_file'], estimated_time: '2 min', files: ['src/args.ts'] },
      { step_number: 2, action: 'Run npm test', reason: 'check nothing broke', tools_needed: ['run_command'], estimated_time: '1 min', files: [] },
    ],
    estimated_total_time: '3 min',
    risks: [],
    prerequisites: [],
    ...overrides,
  };
}

/** goodPlan with a declared scope and a check on each step (`check1`/`check2` are the commands). */
export function checkedPlan(check1 = 'test -f src/args.ts', check2 = 'true'): any {
  const p = goodPlan();
  p.steps[0] = { ...p.steps[0], commands: [], check: check1 };
  p.steps[1] = { ...p.steps[1], commands: ['npm test'], check: check2 };
  return p;
}

/** The same plan with an unknown tool in step 2. */
export function planWithUnknownTool(): any {
  const p = goodPlan();
  p.steps[1].tools_needed = ['sed'];
  return p;
}

export function recorder() {
  const events: HostEvent[] = [];
  const stream = new EventStream((e) => events.push(e));
  const logs: string[] = [];
  const logger: Logger = {
    info: (m) => logs.push(`info ${m}`), warn: (m) => logs.push(`warn ${m}`),
    error: (m) => logs.push(`error ${m}`), debug: (m) => logs.push(`debug ${m}`),
  };
  return { events, stream, logs, logger };
}

/** A plan whose steps write the given files (each step's check: its first file exists and is not empty), with their depends_on. */
export function graphPlan(steps: { files: string[]; depends_on?: number[]; check?: string; action?: string }[]) {
  return {
    format_version: '1.0',
    goal: 'Write the notes',
    steps: steps.map((s, i) => ({
      step_number: i + 1,
      action: s.action ?? `Write ${s.files.join(', ')}`,
      reason: 'notes',
      tools_needed: ['write_file'],
      estimated_time: '1m',
      files: s.files,
      // Done needs evidence: by default, the step's first file exists and is not empty.
      check: s.check ?? `test -s ${s.files[0]}`,
      ...(s.depends_on ? { depends_on: s.depends_on } : {}),
    })),
    estimated_total_time: '2m',
    risks: [],
    prerequisites: [],
  };
}

/** A `--json` run's events, parsed. */
export const jsonEvents = (r: CliRun) => r.stdout.trim().split('\n').filter(Boolean).map((l) => HostEvent.parse(JSON.parse(l)));
