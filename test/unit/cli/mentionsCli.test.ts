/** `@path` mentions in the prompt and `--attach FILE`, through the built CLI against the scripted server. */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ScriptedServer } from '../../support/scriptedServer';
import { buildCli, runCliProcess } from '../../support/cliRunner';

describe('tandem CLI: @path mentions and --attach', function () {
  this.timeout(60_000);
  let cli: string;
  let server: ScriptedServer | undefined;
  let base: string;
  let ws: string;
  const env = { TANDEM_API_KEY: 'sk-x', TANDEM_MAX_RETRIES: '0' };
  before(async () => {
    cli = await buildCli();
  });
  beforeEach(() => {
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-mention-')));
    ws = path.join(base, 'ws');
    fs.mkdirSync(path.join(ws, 'src'), { recursive: true });
    fs.writeFileSync(path.join(ws, 'src', 'cart.ts'), 'export class Cart { total = 0 }\n');
    fs.writeFileSync(path.join(ws, 'notes.md'), '# Notes\nthe cart must round prices\n');
    fs.writeFileSync(path.join(base, 'secret.txt'), 'outside-secret\n');
    fs.writeFileSync(path.join(ws, '.gitignore'), '.env\n');
    fs.writeFileSync(path.join(ws, '.env'), 'KEY=sk-live-123\n');
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    fs.rmSync(base, { recursive: true, force: true });
  });

  it('the prompt\'s @path and --attach FILE reach the model once, with their contents; the terminal lists them', async () => {
    server = await ScriptedServer.start([{ type: 'text', text: 'seen' }]);
    const r = await runCliProcess(cli, ['run', '--no-history', '--workspace', ws, '--base-url', server.url, '--attach', 'notes.md', 'fix @src/cart.ts and @src/cart.ts'], { env, cwd: ws });
    assert.equal(r.code, 0, r.stderr);
    const user = server.chatRequests()[0].messages.filter((m: { role: string }) => m.role === 'user').map((m: { content: string }) => m.content).join('\n');
    assert.match(user, /^fix @src\/cart\.ts and @src\/cart\.ts/);
    assert.equal(user.split('export class Cart { total = 0 }').length - 1, 1, 'attached once');
    assert.match(user, /<attachment mention="@notes\.md" kind="file">\n1\t# Notes\n2\tthe cart must round prices/);
    assert.match(r.stderr, /📎 @src\/cart\.ts\n/);
    assert.match(r.stderr, /📎 @notes\.md\n/);
  });

  it('a mention outside the workspace or of an ignored file is not attached, and the user is told why', async () => {
    server = await ScriptedServer.start([{ type: 'text', text: 'ok' }]);
    const r = await runCliProcess(cli, ['run', '--no-history', '--workspace', ws, '--base-url', server.url, 'read @../secret.txt and @.env'], { env, cwd: ws });
    assert.equal(r.code, 0, r.stderr);
    const sent = JSON.stringify(server.chatRequests()[0].messages);
    assert.doesNotMatch(sent, /outside-secret|sk-live-123/);
    assert.match(r.stderr, /📎 @\.\.\/secret\.txt — not attached: it is outside the workspace/);
    assert.match(r.stderr, /📎 @\.env — not attached: the ignore rules/);
  });

  it('--attach of a file outside the workspace (also through a symlink), an ignored or a missing file is a usage error: exit 2, nothing sent', async () => {
    server = await ScriptedServer.start([{ type: 'text', text: 'never' }]);
    fs.symlinkSync(path.join(base, 'secret.txt'), path.join(ws, 'innocent.txt'));
    const cases: [string, RegExp][] = [
      [path.join(base, 'secret.txt'), /outside the workspace/],
      ['innocent.txt', /innocent\.txt: not attached: it is outside the workspace/],
      ['.env', /ignore rules/],
      ['nope.md', /nope\.md: .*no such file/],
      ['src', /a folder/],
    ];
    for (const [file, why] of cases) {
      const r = await runCliProcess(cli, ['run', '--no-history', '--workspace', ws, '--base-url', server.url, '--attach', file, 'go'], { env, cwd: ws });
      assert.equal(r.code, 2, `${file}: ${r.stderr}`);
      assert.match(r.stderr, why, file);
    }
    assert.equal(server.chatRequests().length, 0);
  });
});
