/**
 * Roles are data: one more read-only role (an Auditor) registered in a test registry (no source
 * file touched) runs through the core, the CLI and the webview store like the product's own.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PRODUCT_ROLES, type RoleDef } from '../../../src/core/roles/roles';
import { productToolRegistry } from '../../../src/core/tools';
import { RoleRegistry, roleAccess, HostEvent, WebviewMessage, webviewMessageSchema } from '../../../src/protocol';
import { runCli } from '../../../src/cli/runCli';
import { HistoryStore } from '../../../src/core/history/historyStore';
import { historyDirFor } from '../../../src/cli/history';
import { harness, type Harness } from '../../support/agentHarness';
import { FAKE_WORKSPACE_TOOLS } from '../../support/fakeTools';
import { ScriptedServer, type ScriptStep } from '../../support/scriptedServer';
import { loadWebviewModule } from '../webview/loadWebviewModule';
import { calls, text } from '../../support/scriptSteps';

const AUDITOR_PROMPT = "You are Tandem's Auditor: read the code the user names and report problems. You never change anything.";

const auditor: RoleDef = {
  id: 'auditor', label: 'Auditor', glyph: '◎', tone: 'calm', icon: 'eye',
  permissions: ['read'], shell: 'none', mayPlan: false, executesPlans: false, modelSetting: 'model.auditor',
  systemPrompt: () => AUDITOR_PROMPT,
};

/** The product's roles plus the Auditor: the test's own registry. */
const TEST_ROLES = new RoleRegistry<RoleDef>([...PRODUCT_ROLES.list, auditor]);

describe('a third role from a test registry', () => {
  describe('through the core (agent turn, scripted server)', () => {
    let h: Harness | undefined;
    afterEach(async () => {
      await h?.close();
      h = undefined;
    });

    it('is offered only read tools, its write call is refused at dispatch, and it uses its own prompt and model', async () => {
      h = await harness({
        roles: TEST_ROLES,
        role: 'auditor',
        tools: FAKE_WORKSPACE_TOOLS,
        files: { 'a.txt': 'alpha\n' },
        settings: (s) => ({ ...s, models: { ...s.models, auditor: 'auditor-model' }, approval: { mode: 'never', autoApprove: { edit: true, create: true, delete: true, command: true } } }),
        steps: [calls({ name: 'write_file', arguments: { path: 'a.txt', content: 'rewritten' } }, { name: 'read_file', arguments: { path: 'a.txt' } }), text('a.txt looks fine')],
      });
      assert.equal(h.agent.role, 'auditor');
      assert.equal(await h.agent.send('review a.txt'), 'done');

      const [offered] = h.server.toolsOffered();
      assert.deepEqual(offered, ['read_file', 'ask_question'], 'read tools only: no write, no shell, no propose_plan, no fail_step');
      const [first] = h.server.chatRequests();
      assert.equal(first.model, 'auditor-model');
      assert.equal(first.messages[0].content, AUDITOR_PROMPT);

      const [write, read] = h.toolCards();
      assert.equal(write!.status, 'refused');
      assert.match(String(write!.error), /write_file is not permitted for the Auditor role/);
      assert.equal(read!.status, 'done');
      assert.equal(h.read('a.txt'), 'alpha\n', 'the file is unchanged');
      assert.ok(h.cardsOf('usage').every((u) => u.role === 'auditor'));
      assert.ok(h.cardsOf('text').filter((c) => c.author === 'user').every((c) => c.role === 'auditor'));
    });

    it('is switched to and from like any role; a role outside the registry is refused with an error card', async () => {
      h = await harness({ roles: TEST_ROLES, role: 'planner', tools: FAKE_WORKSPACE_TOOLS, steps: [] });
      h.agent.setRole('auditor');
      assert.equal(h.agent.role, 'auditor');
      h.agent.setRole('nobody');
      assert.equal(h.agent.role, 'auditor');
      assert.match(h.cardsOf('error').at(-1)!.message, /no role "nobody" here \(roles: planner, actor, reviewer, auditor\)/);
      assert.deepEqual(h.events.filter((e) => e.type === 'role_changed').map((e: any) => e.role), ['auditor']);
    });
  });

  describe('through the CLI (runCli with the test registry)', () => {
    let server: ScriptedServer | undefined;
    let ws: string;
    beforeEach(() => {
      ws = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-third-role-'));
      fs.writeFileSync(path.join(ws, 'a.txt'), 'alpha\n');
    });
    afterEach(async () => {
      await server?.close();
      server = undefined;
      fs.rmSync(ws, { recursive: true, force: true });
    });

    /** runCli in-process with the test registry; `args` gets the scripted server's URL. */
    async function cli(args: (url: string) => string[], steps: ScriptStep[] = []) {
      server = await ScriptedServer.start(steps);
      let stdout = '';
      let stderr = '';
      const env = { TANDEM_API_KEY: 'sk-third-role', TANDEM_MAX_RETRIES: '0', TANDEM_DATA_DIR: path.join(ws, '.tandem-test-data') };
      const code = await runCli({
        argv: args(server.url), env, isTty: false, cwd: ws,
        stdout: (s) => void (stdout += s),
        stderr: (s) => void (stderr += s),
      }, { roles: TEST_ROLES, tools: productToolRegistry });
      return { code, stdout, stderr, env };
    }

    it('runs --role auditor read-only: write tools are not offered and a write call changes nothing; history records the role', async () => {
      const r = await cli(
        (url) => ['run', '--workspace', ws, '--base-url', url, '--role', 'auditor', '--approve', 'all', '--json', 'review a.txt'],
        [calls({ name: 'write_file', arguments: { path: 'a.txt', content: 'rewritten' } }), text('looks fine')],
      );
      assert.equal(r.code, 0, r.stderr);
      const offered = server!.toolsOffered()[0]!;
      assert.deepEqual([...offered].sort(), ['ask_question', 'diagnostics', 'document_outline', 'find_files', 'find_references', 'find_symbol', 'go_to_definition', 'hover_type', 'list_files', 'read_file', 'search']);
      const events = r.stdout.trim().split('\n').map((l) => HostEvent.parse(JSON.parse(l)));
      const refused = events.find((e) => e.type === 'card_patched' && (e.patch as { status?: string }).status === 'refused');
      assert.ok(refused, 'the write call is refused at dispatch');
      assert.equal(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8'), 'alpha\n');
      const [task] = await new HistoryStore(historyDirFor(ws, r.env)).list();
      assert.equal(task!.role, 'auditor', 'history records the test\'s role, not "the Planner"');
    });

    it('lists the registry\'s roles in --role errors and in the help', async () => {
      const bad = await cli(() => ['run', '--workspace', ws, '--role', 'nobody', 'x']);
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /--role must be one of planner, actor, reviewer, auditor \(got "nobody"\)/);
      const help = await cli(() => ['run', '--help']);
      assert.equal(help.code, 0);
      assert.match(help.stdout, /--role planner\|actor\|reviewer\|auditor/);
      assert.match(help.stdout, /auditor: read-only/);
    });
  });

  it('is a role the webview may ask for only on a host whose registry has it', () => {
    const setRole = { type: 'set_role', role: 'auditor' };
    assert.equal(webviewMessageSchema(TEST_ROLES.ids).safeParse(setRole).success, true);
    assert.equal(WebviewMessage.safeParse(setRole).success, false, 'the product host knows no Auditor');
    const save = { type: 'save_settings', base_url: 'http://x/v1', models: { planner: 'p', actor: 'a', reviewer: 'r', auditor: 'u' } };
    assert.equal(webviewMessageSchema(TEST_ROLES.ids).safeParse(save).success, true);
  });

  describe('through the webview store', () => {
    type StoreMod = typeof import('../webview/webviewState.entry');
    let S: StoreMod;
    before(async () => {
      S = await loadWebviewModule<StoreMod>('test/unit/webview/webviewState.entry.ts');
    });

    function feed(store: InstanceType<StoreMod['ChatStore']>, data: unknown): void {
      for (const item of S.decodeInbound(data)) if (item.kind === 'event') store.apply(item.event);
    }

    it('shows the third role from a snapshot and a role change, and its role control cycles through all four', () => {
      const store = new S.ChatStore(TEST_ROLES);
      assert.equal(store.roleInfo.label, 'Planner');
      feed(store, { type: 'snapshot', seq: 1, role: 'auditor', cards: [] });
      assert.equal(store.role, 'auditor');
      assert.deepEqual([store.roleInfo.label, store.roleInfo.glyph, roleAccess(store.roleInfo)], ['Auditor', '◎', 'read-only']);
      assert.equal(store.nextRole.id, 'planner', 'after the last role comes the first');
      feed(store, { type: 'role_changed', seq: 2, role: 'actor', reason: 'Execute plan' });
      assert.equal(store.nextRole.id, 'reviewer');
      feed(store, { type: 'role_changed', seq: 3, role: 'auditor' });
      assert.equal(store.roleInfo.label, 'Auditor');
      assert.equal(store.roleNotice, null);
    });
  });
});
