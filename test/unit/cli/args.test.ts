/**
 * The command line parsed against the command table: the forms a user types (flags before or after
 * the prompt, --flag=value, `--`), and each bad usage named the way the CLI says it.
 */
import assert from 'node:assert/strict';
import { parseArgs, type RunArgs } from '../../../src/cli/args';
import { OPTIONS, type OptionDef } from '../../../src/cli/commands';
import { FACTS_USAGE, HISTORY_USAGE, USAGE } from '../../../src/cli/usage';
import { settingsFromEnv } from '../../../src/cli/settingsFromEnv';
import { modelFor } from '../../../src/core/settings/settings';
import { PRODUCT_ROLE_INFO, RoleRegistry, ROLE_TABLE } from '../../../src/protocol';

const ROLE_IDS = PRODUCT_ROLE_INFO.ids;

const run = (argv: string[]): RunArgs => {
  const r = parseArgs(argv);
  assert.equal(r.kind, 'run', JSON.stringify(r));
  return r as RunArgs;
};
const error = (argv: string[]) => {
  const r = parseArgs(argv);
  assert.equal(r.kind, 'error', JSON.stringify(r));
  return (r as { message: string }).message;
};

describe('tandem arguments (node:util parseArgs over the command table)', () => {
  it('takes flags before and after the prompt, --flag=value, and joins the words', () => {
    const r = run(['run', '--model=m1', 'fix', 'the', '--workspace', 'w', 'bug', '--approve=edits', '--json']);
    assert.deepEqual([r.prompt, r.model, r.workspace, r.approve, r.json, r.role], ['fix the bug', 'm1', 'w', 'edits', true, 'planner']);
  });

  it('after `--` everything is the prompt, even what looks like a flag; a lone "-" is a word', () => {
    assert.equal(run(['run', '--json', '--', '--role', 'actor', '-h']).prompt, '--role actor -h');
    assert.equal(run(['run', '-', 'x']).prompt, '- x');
  });

  it('asks for help with -h/--help anywhere before `--`, or `tandem help`', () => {
    assert.deepEqual(parseArgs(['run', 'x', '-h']), { kind: 'help', command: 'run' });
    assert.deepEqual(parseArgs(['help']), { kind: 'help', command: 'run' });
    assert.deepEqual(parseArgs(['history', 'show', '--help']), { kind: 'help', command: 'history' });
  });

  it('names each bad usage', () => {
    assert.equal(error([]), 'missing command');
    assert.equal(error(['frob']), 'unknown command "frob" (expected run, plan, review, history, facts, apply, eval)');
    assert.equal(error(['apply']), 'tandem apply needs at least one patch file');
    assert.equal(error(['run', '--role', 'actor', '--plan', 'p.json', '--step', '2']), "--step needs --emit-patch OUT (where the step's patch is written)");
    assert.equal(error(['run', '--step', '2', '--emit-patch', 'o.json', 'x']), "--step goes with --plan FILE.json (it runs that plan's step N)");
    assert.equal(error(['run', '--role', 'actor', '--plan', 'p.json', '--apply', 'a.json']), '--apply goes with --step N (use tandem apply PATCH… to apply patches)');
    assert.equal(error(['run', '--role', 'actor', '--plan', 'p.json', '--step', 'two', '--emit-patch', 'o.json']), '--step needs a step number (got "two")');
    assert.equal(error(['run']), 'missing the prompt');
    assert.equal(error(['run', '--frobnicate=1', 'x']), 'unknown option --frobnicate');
    assert.equal(error(['run', '-x', 'y']), 'unknown option -x');
    assert.equal(error(['run', '--json=yes', 'x']), '--json takes no value');
    assert.equal(error(['run', 'x', '--model']), '--model needs a value');
    assert.equal(error(['run', 'x', '--model', ' ']), '--model needs a value');
    assert.match(error(['run', '--workspace', '--json', 'x']), /^--workspace needs a value/);
    assert.equal(error(['run', '--approve', 'some', 'x']), '--approve must be one of never, edits, plan, all (got "some")');
    assert.equal(error(['run', '--answer', 'yes', 'x']), '--answer must be "default" (got "yes")');
    assert.equal(error(['run', '--resume', 'abc', '--no-history', 'x']), '--resume and --no-history cannot be combined');
    assert.equal(error(['history', '--out']), '--out needs a file name');
    assert.equal(error(['history', '--bogus']), 'unknown option --bogus');
  });

  it('accepts every role id of the role table for --role, and lists them when one is wrong', () => {
    for (const role of ROLE_IDS) assert.equal(run(['run', '--role', role, 'x']).role, role);
    assert.equal(error(['run', '--role', 'admin', 'x']), `--role must be one of ${ROLE_IDS.join(', ')} (got "admin")`);
    assert.equal(run(['run', '--role', 'actor', '--role=planner', 'x']).role, 'planner', 'the last --role wins for run');
    assert.equal(run(['run', 'x']).roleGiven, false);
    assert.equal(run(['run', '--role', 'planner', 'x']).roleGiven, true);
  });

  it('plan and --plan ask the role table which role plans and which executes', () => {
    const roles = new RoleRegistry([ROLE_TABLE[1], { ...ROLE_TABLE[0], id: 'scout', label: 'Scout' }]);
    const plan = parseArgs(['plan', 'x', '--out', 'p.json'], roles);
    assert.ok(plan.kind === 'run' && plan.role === 'scout', JSON.stringify(plan));
    const refused = parseArgs(['plan', '--role', 'actor', 'x', '--out', 'p.json'], roles);
    assert.deepEqual(refused, { kind: 'error', command: 'plan', message: 'tandem plan runs the Scout; --role actor is not allowed' });
    const exec = parseArgs(['run', '--plan', 'p.json'], roles);
    assert.ok(exec.kind === 'run' && exec.role === 'actor');
    assert.equal(parseArgs(['run', 'x'], roles).kind === 'run' && (parseArgs(['run', 'x'], roles) as RunArgs).role, 'actor', 'a task starts in the first role');
  });

  it('history: sub-command words and its own options', () => {
    assert.deepEqual(parseArgs(['history', 'export', 'ab12', '--out=t.md', '--workspace', 'w']),
      { kind: 'history', words: ['export', 'ab12'], out: 't.md', workspace: 'w', historyDir: undefined, call: undefined, json: false });
    assert.match(error(['history', '--role', 'actor']), /unknown option --role/);
  });

  it('the usage documents every option its command takes, and every role', () => {
    for (const [name, o] of Object.entries(OPTIONS) as [string, OptionDef][]) {
      if (o.commands.some((c) => c !== 'history' && c !== 'facts')) assert.ok(USAGE.includes(`--${name}`), name);
      if (o.commands.includes('history')) assert.ok(HISTORY_USAGE.includes(`--${name}`), name);
      if (o.commands.includes('facts')) assert.ok(FACTS_USAGE.includes(`--${name}`), name);
    }
    assert.ok(USAGE.includes(`--role ${ROLE_IDS.join('|')}`));
  });
});

describe('settingsFromEnv: the one place the CLI reads its environment', () => {
  it('flags win over TANDEM_*, which win over OPENAI_*', () => {
    const env = { TANDEM_BASE_URL: 'http://t/v1', OPENAI_BASE_URL: 'http://o/v1', OPENAI_API_KEY: 'sk-o', TANDEM_MODEL: 'tm' };
    const a = settingsFromEnv(env, {}, false).settings;
    assert.deepEqual([a.baseURL, a.apiKey], ['http://t/v1', 'sk-o']);
    const b = settingsFromEnv(env, { baseURL: 'http://flag/v1', model: 'fm' }, false).settings;
    assert.equal(b.baseURL, 'http://flag/v1');
    for (const role of ROLE_IDS) {
      assert.equal(modelFor(a, role), 'tm', `${role} runs $TANDEM_MODEL`);
      assert.equal(modelFor(b, role), 'fm', `${role} runs --model`);
    }
  });

  it('reads limits, budget, window, summary model, prices and the log level; ignores malformed values', () => {
    const { settings, logLevel } = settingsFromEnv({
      TANDEM_MAX_TOOL_CALLS: '7', TANDEM_IDLE_TIMEOUT_MS: '1500', TANDEM_MAX_RETRIES: '0', TANDEM_BUDGET_USD: '0.5',
      TANDEM_CONTEXT_WINDOW: '8192.7', TANDEM_SUMMARY_MODEL: 'small', TANDEM_PRICES: '{"m":{"input":1,"output":2}}', TANDEM_LOG: 'debug',
    }, {}, false);
    assert.deepEqual([settings.limits.maxToolCallsPerTurn, settings.limits.requestIdleTimeoutMs, settings.limits.maxRetries], [7, 1500, 0]);
    assert.deepEqual([settings.taskBudgetUsd, settings.contextWindow, settings.summaryModel, settings.prices?.m, logLevel], [0.5, 8192, 'small', { input: 1, output: 2 }, 'debug']);
    const bad = settingsFromEnv({ TANDEM_MAX_TOOL_CALLS: 'lots', TANDEM_BUDGET_USD: '-1', TANDEM_PRICES: '{nope', TANDEM_LOG: 'loud' }, {}, false);
    assert.deepEqual([bad.settings.limits.maxToolCallsPerTurn, bad.settings.taskBudgetUsd, bad.settings.prices, bad.logLevel], [25, 0, undefined, 'warn']);
  });

  it('--approve sets the approval policy; without a terminal nothing is asked', () => {
    const s = settingsFromEnv({}, { approve: 'edits' }, false).settings;
    assert.equal(s.approval.mode, 'never');
    assert.deepEqual(s.approval.autoApprove, { edit: true, create: true, delete: false, command: false });
  });
});
