import { PRODUCT_ROLE_INFO, type RoleInfo, type RoleRegistry } from '../protocol';

/** `--role`'s lines, from the role table: one per role, what it may do. */
function roleLines(roles: RoleRegistry<RoleInfo>): string {
  const head = `  --role ${roles.ids.join('|')}`;
  const lines = roles.list.map((r, i) => {
    const what = [r.access, r.mayPlan ? 'proposes a plan' : '', r.executesPlans ? 'executes plans' : ''].filter(Boolean).join(', ');
    return `${r.id}: ${what}${i === 0 ? ' (default)' : ''}`;
  });
  const pad = ' '.repeat(28);
  const first = head.length < 28 ? head.padEnd(28) + lines[0] : `${head}\n${pad}${lines[0]}`;
  return [first, ...lines.slice(1).map((l) => pad + l)].join('\n');
}

/** The `tandem run` help; the role lines come from the registry the CLI runs with. */
export function usage(roles: RoleRegistry<RoleInfo> = PRODUCT_ROLE_INFO): string {
  const planner = roles.planner?.label ?? 'planning role';
  const executor = roles.executor?.id ?? 'ROLE';
  return `Usage: tandem run [options] "<prompt>"
       tandem plan [options] "<prompt>" --out FILE.json   write the ${planner}'s validated plan
       tandem run --role ${executor} --plan FILE.json [options] execute a plan file step by step
       tandem run --resume ID [options] "<prompt>"        continue a saved task
       tandem history [--workspace DIR] [--json]          saved tasks (tandem history --help)

Runs one turn of the Tandem agent on a workspace, headless, against any
OpenAI-compatible endpoint, and exits when the turn ends.

Options:
  --workspace DIR           workspace folder (default: the current directory)
${roleLines(roles)}
  --model M                 model for the role (default: $TANDEM_MODEL or gpt-4o-mini)
  --base-url URL            endpoint, e.g. http://127.0.0.1:8080/v1
  --approve never|edits|all what may happen without asking:
                              never  deny every action that needs approval
                                     (the default without a terminal)
                              edits  allow edits and new files inside the workspace
                              all    allow every action inside the workspace
                            Paths outside the workspace are never allowed by a flag.
                            With a terminal and no flag, each action is asked (y/n).
  --answer default          answer the agent's questions with their default option
                            (otherwise a question ends the run with exit code 3)
  --json                    print one event per line (the objects the editor panel gets)
  -h, --help                show this help

Environment:
  TANDEM_API_KEY, OPENAI_API_KEY     API key (never printed)
  TANDEM_BASE_URL, OPENAI_BASE_URL   endpoint (--base-url wins)
  TANDEM_MODEL                       default model
  TANDEM_MAX_TOOL_CALLS              tool calls per turn before asking (default 25)
  TANDEM_IDLE_TIMEOUT_MS             abandon a request silent this long (default 60000)
  TANDEM_MAX_RETRIES                 retries for 429/5xx/connection errors, waits capped at 60 s; a timeout is retried once (default 2)
  TANDEM_LOG                         debug|info|warn|error|off (stderr, default warn)

Exit codes:
  0  the turn ended
  1  an error (endpoint, network, tool failures, internal)
  2  bad usage
  3  stopped on a question it may not answer, or at the tool-call limit
  130 stopped by Ctrl-C
`;
}

export const USAGE = usage();
