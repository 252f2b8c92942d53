/**
 * A Tandem Agent with the product's own tools on a temp workspace, talking to a real llama-server,
 * recording every event it emits (each checked against the protocol schema).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Agent } from '../../../src/core/task/taskAgent';
import { wireAgent } from '../../../src/core/runtime/wireAgent';
import { defaultSettings, type AgentSettings } from '../../../src/core/settings/settings';
import type { Card, HostEvent, RoleId } from '../../../src/protocol';
import { HostEvent as HostEventSchema } from '../../../src/protocol';
import { createNodeHost } from '../../../src/host/node/nodeHost';

export const TINY_MODEL = 'tandem-tiny';

export interface LlamaAgent {
  agent: Agent;
  ws: string;
  events: HostEvent[];
  cardsOf<K extends Card['kind']>(kind: K): Extract<Card, { kind: K }>[];
  close(): void;
}

export function llamaAgent(o: {
  baseURL: string;
  /** An existing folder to work in (kept on close); by default a new temp folder (removed on close). */
  workspace?: string;
  role?: RoleId;
  apiKey?: string;
  files?: Record<string, string>;
  settings?: (s: AgentSettings) => AgentSettings;
  onEvent?: (e: HostEvent) => void;
}): LlamaAgent {
  const ws = o.workspace ?? fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-llama-'));
  for (const [rel, text] of Object.entries(o.files ?? {})) {
    fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
    fs.writeFileSync(path.join(ws, rel), text);
  }
  const host = createNodeHost({ roots: [ws], approver: { request: async () => ({ approved: false, reason: 'no approvals in this test' }) } });
  const base = defaultSettings({ baseURL: o.baseURL, apiKey: o.apiKey ?? 'sk-no-key-needed', models: { planner: TINY_MODEL, actor: TINY_MODEL } });
  const settings = o.settings ? o.settings(base) : base;
  const events: HostEvent[] = [];
  const agent = wireAgent({
    host,
    settings,
    role: o.role ?? 'actor',
    emit: (e) => {
      const parsed = HostEventSchema.safeParse(e);
      if (!parsed.success) throw new Error(`invalid event ${JSON.stringify(e)}: ${parsed.error.message}`);
      events.push(e);
      o.onEvent?.(e);
    },
  });
  return {
    agent,
    ws,
    events,
    cardsOf: <K extends Card['kind']>(kind: K) => agent.cards().filter((c) => c.kind === kind) as Extract<Card, { kind: K }>[],
    close: () => {
      if (!o.workspace) fs.rmSync(ws, { recursive: true, force: true });
    },
  };
}
