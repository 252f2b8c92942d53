/**
 * A real temp workspace and a ToolContext on the Node host, with a scripted approver that records
 * what it was asked. Tools run exactly as the dispatcher runs them: input parsed by the tool's zod
 * schema first, so defaults apply.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ApprovalDecision, ApprovalRequest, HostPorts } from '../../../src/core/ports/ports';
import { nullLogger } from '../../../src/core/ports/ports';
import { ReadTracker } from '../../../src/core/tools/readTracker';
import { WorkspacePaths } from '../../../src/core/workspace/workspacePaths';
import type { Tool, ToolContext, ToolResult } from '../../../src/core/tools/tool';
import { PRODUCT_ROLES } from '../../../src/core/roles/roles';
import { NodeWorkspaceFs } from '../../../src/host/node/nodeWorkspaceFs';
import { NodeCommandRunner } from '../../../src/host/node/nodeCommandRunner';

export type ApproverScript =
  | 'approve'
  | 'deny'
  | ((req: Omit<ApprovalRequest, 'callId' | 'tool'>) => ApprovalDecision);

export interface Harness {
  /** Real path of the workspace root. */
  ws: string;
  /** Real path of a folder beside the workspace (outside it). */
  outside: string;
  ctx: ToolContext;
  reads: ReadTracker;
  host: HostPorts;
  approvals: Omit<ApprovalRequest, 'callId' | 'tool'>[];
  changed: string[];
  approver: { script: ApproverScript };
  abort: AbortController;
  call(tool: Tool, input: unknown): Promise<ToolResult>;
  write(rel: string, text: string): string;
  read(rel: string): string;
  cleanup(): void;
}

export function makeHarness(opts: { rg?: string; wsName?: string; maxOutputChars?: number; commandTimeoutMs?: number } = {}): Harness {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-tools-')));
  const ws = path.join(base, opts.wsName ?? 'ws');
  const outside = path.join(base, 'outside');
  fs.mkdirSync(ws);
  fs.mkdirSync(outside);
  const fsPort = new NodeWorkspaceFs([ws]);
  const host: HostPorts = {
    fs: fsPort,
    // The unsandboxed runner (what runs when there is no sandbox and a person approved): its process
    // handling is what these tests check; the sandbox has its own (test/unit/security/sandboxEscapes.test.ts).
    commands: new NodeCommandRunner({ maxOutputChars: opts.maxOutputChars ?? 30_000, killGraceMs: 500, sandbox: { env: { ...process.env, TANDEM_BWRAP: 'off' } } }),
    approver: { request: async () => ({ approved: false }) },
    asker: { ask: async () => '' },
    ripgrepPath: opts.rg,
    logger: nullLogger,
  };
  const reads = new ReadTracker();
  const approvals: Harness['approvals'] = [];
  const changed: string[] = [];
  const approver: Harness['approver'] = { script: 'approve' };
  const abort = new AbortController();
  const ctx: ToolContext = {
    host,
    paths: new WorkspacePaths(fsPort),
    reads,
    role: PRODUCT_ROLES.get('actor'),
    callId: 'call-1',
    signal: abort.signal,
    settings: { commandTimeoutMs: opts.commandTimeoutMs ?? 30_000, maxOutputChars: opts.maxOutputChars ?? 30_000 },
    async approve(req) {
      approvals.push(req);
      const s = approver.script;
      if (s === 'approve') return { approved: true };
      if (s === 'deny') return { approved: false, reason: 'not now' };
      return s(req);
    },
    async beforeChange(p) {
      changed.push(p);
    },
  };
  return {
    ws,
    outside,
    ctx,
    reads,
    host,
    approvals,
    changed,
    approver,
    abort,
    async call(tool, input) {
      const parsed = tool.input.parse(input);
      return tool.run(parsed, ctx);
    },
    write(rel, text) {
      const p = path.join(ws, rel);
      fs.mkdirSync(path.dirname(p), { recursive: true });
      fs.writeFileSync(p, text);
      return p;
    },
    read(rel) {
      return fs.readFileSync(path.join(ws, rel), 'utf8');
    },
    cleanup() {
      fs.rmSync(base, { recursive: true, force: true });
    },
  };
}
