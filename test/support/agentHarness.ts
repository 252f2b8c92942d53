/**
 * A task started as the hosts start one (`startTask`: the agent wired to its budget guard and context
 * fitting), on a real temp workspace, a real Node host and the scripted server over a real socket,
 * recording every event it emits. No history is kept (as with the CLI's --no-history).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Agent } from '../../src/core/task/taskAgent';
import { startTask, type RunningTask } from '../../src/core/runtime/runningTask';
import type { AgentHooks } from '../../src/core/turn/turnHooks';
import type { Summarizer } from '../../src/core/context/contextFitter';
import { defaultSettings, type AgentSettings } from '../../src/core/settings/settings';
import type { Approver, QuestionAsker, ApprovalRequest, DiagnosticsProvider } from '../../src/core/ports/ports';
import type { Tool } from '../../src/core/tools/tool';
import type { Card, HostEvent, RoleId, ToolCallCard } from '../../src/protocol';
import { HostEvent as HostEventSchema } from '../../src/protocol';
import { LOOP_TOOLS, productToolRegistry } from '../../src/core/tools';
import { ToolRegistry, fixedProvider, type ToolProvider } from '../../src/core/tools/toolRegistry';
import { PRODUCT_ROLES, type RoleDef } from '../../src/core/roles/roles';
import type { RoleRegistry } from '../../src/protocol';
import { createNodeHost } from '../../src/host/node/nodeHost';
import { ScriptedServer, type ScriptedServerOptions, type ScriptStep } from './scriptedServer';
import { execFileSync } from 'node:child_process';
import type { UserHooks } from '../../src/core/userHooks/userHooks';

export interface HarnessOptions {
  steps: ScriptStep[];
  /** More of the scripted server's options (e.g. lanes: each plan step's Actor answered by its step). */
  server?: ScriptedServerOptions;
  /** The workspace is a git repository with its files committed (plan steps can get worktrees). */
  git?: boolean;
  role?: RoleId;
  /** The workspace tools (the loop's own are always added), or whole providers (e.g. one that changes at run time). */
  tools?: readonly Tool[];
  providers?: readonly ToolProvider[];
  /** A role registry of the test's own (default: the product's). */
  roles?: RoleRegistry<RoleDef>;
  files?: Record<string, string>;
  settings?: (s: AgentSettings) => AgentSettings;
  approver?: Approver;
  asker?: QuestionAsker;
  /** The test's observers (the task's own parts come first; its context fitting is the task's). */
  hooks?: Omit<AgentHooks, 'fitContext'>;
  /** What condenses the conversation past the window (default: the endpoint's summary model, i.e. the scripted server). */
  summarizer?: Summarizer;
  /** The editor's problems, for tests of what an editor host reports (the Node host has none). */
  diagnostics?: DiagnosticsProvider;
  /** The user's hook commands, made for this test's workspace. */
  userHooks?: (ws: string) => UserHooks;
}

export interface Harness {
  /** The started task (what a host holds); `agent` is its agent. */
  task: RunningTask;
  agent: Agent;
  server: ScriptedServer;
  ws: string;
  events: HostEvent[];
  approvals: ApprovalRequest[];
  toolCards(): ToolCallCard[];
  cardsOf<K extends Card['kind']>(kind: K): Extract<Card, { kind: K }>[];
  read(rel: string): string;
  close(): Promise<void>;
}

export async function harness(o: HarnessOptions): Promise<Harness> {
  const server = await ScriptedServer.start(o.steps, o.server);
  const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-loop-')));
  for (const [rel, text] of Object.entries(o.files ?? {})) {
    fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
    fs.writeFileSync(path.join(ws, rel), text);
  }
  if (o.git) {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: ws, stdio: 'ignore' });
    git('init', '-q');
    git('add', '-A');
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'init', '--allow-empty');
  }
  const approvals: ApprovalRequest[] = [];
  const recordingApprover: Approver = {
    async request(req, signal) {
      approvals.push(req);
      return o.approver ? o.approver.request(req, signal) : { approved: false, reason: 'no approver in this test' };
    },
  };
  const host = createNodeHost({ roots: [ws], approver: recordingApprover, asker: o.asker });
  if (o.diagnostics) host.diagnostics = o.diagnostics;
  const base = defaultSettings({ baseURL: server.url, apiKey: 'sk-harness-key-9876', models: { planner: 'planner-model', actor: 'actor-model' } });
  base.limits = { ...base.limits, maxRetries: 0, requestIdleTimeoutMs: 5000 };
  // The scripted models have no known window: the default one would be said in a note and would
  // condense (one more request) mid-test, as the task's context fitting does for a host.
  base.contextWindow = 128_000;
  // Hermetic: the user's own skills folder (~/.tandem/skills) never leaks into a test's prompt.
  base.knowledge = { ...base.knowledge!, userSkillsDir: path.join(ws, '.no-user-skills') };
  const settings = o.settings ? o.settings(base) : base;
  const events: HostEvent[] = [];
  const userHooks = o.userHooks?.(ws);
  const task = startTask(
    {
      host,
      settings: () => settings,
      ...(userHooks ? { userHooks: () => userHooks } : {}),
      ...(o.summarizer ? { summarizer: o.summarizer } : {}),
      registries: {
        roles: o.roles ?? PRODUCT_ROLES,
        tools: () => (o.providers ? new ToolRegistry([...o.providers, LOOP_TOOLS]) : o.tools ? new ToolRegistry([fixedProvider('test', o.tools), LOOP_TOOLS]) : productToolRegistry()),
      },
    },
    {
      role: o.role ?? 'actor',
      ...(o.hooks ? { hooks: o.hooks } : {}),
      sink: (e) => {
        // Every event must be a valid protocol object: what the webview and --json receive.
        const parsed = HostEventSchema.safeParse(e);
        if (!parsed.success) throw new Error(`invalid event ${JSON.stringify(e)}: ${parsed.error.message}`);
        events.push(e);
      },
    },
  );
  const agent = task.agent;
  return {
    task,
    agent,
    server,
    ws,
    events,
    approvals,
    toolCards: () => agent.cards().filter((c): c is ToolCallCard => c.kind === 'tool_call'),
    cardsOf: <K extends Card['kind']>(kind: K) => agent.cards().filter((c) => c.kind === kind) as Extract<Card, { kind: K }>[],
    read: (rel) => fs.readFileSync(path.join(ws, rel), 'utf8'),
    async close() {
      await task.close();
      await server.close();
      fs.rmSync(ws, { recursive: true, force: true });
    },
  };
}
