/** `tandem history` and `tandem run --resume` as a user runs them: the real CLI bundle in a child process. */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildCli, runCliProcess } from '../../support/cliRunner';
import { ScriptedServer } from '../../support/scriptedServer';

describe('CLI: tandem history and run --resume', function () {
  this.timeout(60_000);
  let cli: string;
  let tmp: string;
  let ws: string;
  let data: string;
  let server: ScriptedServer | undefined;
  before(async () => {
    cli = await buildCli();
  });
  beforeEach(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-clihist-')));
    ws = path.join(tmp, 'ws');
    data = path.join(tmp, 'data');
    fs.mkdirSync(ws);
    fs.writeFileSync(path.join(ws, 'a.txt'), 'alpha\n');
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    fs.rmSync(tmp, { recursive: true, force: true });
  });
  const env = () => ({ TANDEM_API_KEY: 'sk-x', TANDEM_BASE_URL: server!.url, TANDEM_MAX_RETRIES: '0', TANDEM_DATA_DIR: data });
  const cliRun = (args: string[]) => runCliProcess(cli, args, { env: env() });

  it('saves every run outside the workspace, lists it, shows/exports it, resumes it with the earlier turns, reverts and deletes it', async () => {
    server = await ScriptedServer.start([
      { type: 'tool_calls', calls: [{ id: 'call_w', name: 'write_file', arguments: { path: 'b.txt', content: 'bravo\n' } }] },
      { type: 'text', text: 'Created b.txt for you.' },
      { type: 'text', text: 'Yes, b.txt holds bravo.' },
    ]);
    const r1 = await cliRun(['run', '--workspace', ws, '--role', 'actor', '--approve', 'all', 'Create b.txt with bravo']);
    assert.equal(r1.code, 0, r1.stderr);
    assert.equal(fs.readFileSync(path.join(ws, 'b.txt'), 'utf8'), 'bravo\n');
    const id = /\[task (\S+) saved/.exec(r1.stderr)?.[1];
    assert.ok(id, r1.stderr);
    assert.deepEqual(fs.readdirSync(ws).sort(), ['a.txt', 'b.txt'], 'nothing written into the workspace besides the agent\'s file');

    const list = await cliRun(['history', '--workspace', ws, '--json']);
    assert.equal(list.code, 0, list.stderr);
    const tasks = list.stdout.trim().split('\n').map((l) => JSON.parse(l));
    assert.equal(tasks.length, 1);
    assert.equal(tasks[0].id, id);
    assert.equal(tasks[0].title, 'Create b.txt with bravo');
    assert.ok(tasks[0].bytes > 0 && tasks[0].cards > 3 && tasks[0].usage.tokens_in === 200);
    const table = await cliRun(['history', '--workspace', ws]);
    assert.match(table.stdout, /ID +LAST ACTIVITY +CARDS +SIZE +COST +TITLE/);
    assert.match(table.stdout, new RegExp(`${id} .* Create b\\.txt with bravo`));

    const show = await cliRun(['history', 'show', id!.slice(0, 10), '--workspace', ws]);
    assert.equal(show.code, 0, show.stderr);
    assert.match(show.stdout, /^# Create b\.txt with bravo/);
    assert.match(show.stdout, /Created b\.txt for you\./);
    const out = path.join(tmp, 'task.md');
    assert.equal((await cliRun(['history', 'export', id!, '--workspace', ws, '--out', out])).code, 0);
    assert.match(fs.readFileSync(out, 'utf8'), /#### Tool `write_file`/);

    const r2 = await cliRun(['run', '--workspace', ws, '--resume', id!, 'Does b.txt hold bravo?']);
    assert.equal(r2.code, 0, r2.stderr);
    const sent = server.chatRequests()[2].messages as any[];
    assert.deepEqual(sent.map((m) => m.role), ['system', 'user', 'assistant', 'tool', 'assistant', 'user']);
    assert.equal(sent[1].content, 'Create b.txt with bravo');
    assert.match(sent[0].content, /Actor/, 'the resumed task keeps its role');
    assert.equal(sent[5].content, 'Does b.txt hold bravo?');

    // The user edits b.txt: the revert is refused and shows the diff; after undoing the edit it goes through.
    fs.writeFileSync(path.join(ws, 'b.txt'), 'bravo\nmine\n');
    const refused = await cliRun(['history', 'revert', id!, '--workspace', ws]);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /Nothing was reverted.*\n- b\.txt was edited since the agent's change/);
    assert.match(refused.stderr, /\+mine/);
    // The terminal prints the diff right after the message, and the message says so (no button to press).
    assert.match(refused.stderr, /the diff is below\.\n[^]*\+mine/);
    assert.doesNotMatch(refused.stderr, /Show the diff/);
    const recorded = JSON.parse((await cliRun(['history', 'show', id!, '--workspace', ws, '--json'])).stdout).cards.filter((c: any) => c.kind === 'error').at(-1);
    assert.match(recorded.message, /see the diff in this card's details\.$/);
    assert.match(recorded.detail, /\+mine/, 'the recorded refusal keeps the diff in its details');
    assert.equal(fs.readFileSync(path.join(ws, 'b.txt'), 'utf8'), 'bravo\nmine\n');
    fs.writeFileSync(path.join(ws, 'b.txt'), 'bravo\n');
    const reverted = await cliRun(['history', 'revert', id!, '--workspace', ws, '--call', 'call_w']);
    assert.equal(reverted.code, 0, reverted.stderr);
    assert.equal(fs.existsSync(path.join(ws, 'b.txt')), false);
    const shown = await cliRun(['history', 'show', id!, '--workspace', ws, '--json']);
    const snap = JSON.parse(shown.stdout);
    assert.ok(snap.cards.some((c: any) => c.kind === 'tool_call' && c.call_id === 'call_w' && c.reverted === true), 'the revert is recorded');

    assert.equal((await cliRun(['history', 'delete', id!, '--workspace', ws])).code, 0);
    assert.equal((await cliRun(['history', '--workspace', ws])).stdout, 'No saved tasks for this workspace.\n');
    const gone = await cliRun(['run', '--workspace', ws, '--resume', id!, 'again']);
    assert.equal(gone.code, 2);
    assert.match(gone.stderr, /No task with id/);
  });

  it('stops at the budget from TANDEM_BUDGET_USD with exit 3 and the question on stderr', async () => {
    server = await ScriptedServer.start([
      { type: 'tool_calls', calls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] },
      { type: 'tool_calls', calls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] },
      { type: 'text', text: 'never' },
    ]);
    const r = await runCliProcess(cli, ['run', '--workspace', ws, 'read it twice'], {
      env: { ...env(), TANDEM_BUDGET_USD: '0.15', TANDEM_PRICES: JSON.stringify({ 'gpt-4o-mini': { input: 1000, output: 0 } }) },
    });
    assert.equal(r.code, 3, r.stderr);
    assert.match(r.stderr, /budget of \$0\.15 is used up \(\$0\.20 spent\)/);
    assert.equal(server.chatRequests().length, 2);
  });
});
