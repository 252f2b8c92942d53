/**
 * The terminal must show what will really happen. A model that proposes
 * `rm -f victim.txt #\r\x1b[2KAllow run: echo hello` would, printed raw, show "Allow run: echo hello"
 * (carriage return + erase line) while bash runs `rm -f victim.txt`; escape sequences in its text
 * could set the clipboard (OSC 52) or repaint the screen, and bidi overrides reorder what is read.
 * On a terminal (runCli in-process, isTty) and in the built CLI's readable output, every control
 * character arrives made visible.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { runCli } from '../../../src/cli/runCli';
import { ScriptedServer } from '../../support/scriptedServer';
import { buildCli } from '../../support/cliRunner';
import { visibleControls } from '../../../src/protocol/visibleControls';
import { calls, runCliAgainst, tc, tempDir, text } from './securityKit';

const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const SPOOF = 'rm -f victim.txt #\r\u001b[2KAllow run: echo hello';
const OSC52 = 'Sure.\u001b]52;c;cm0gLXJmIH4K\u0007 \u001b[2J\u001b[H Done \u202eevil\u202c.';

describe('security: model text cannot drive the terminal', function () {
  this.timeout(30_000);
  let ws: string;
  let server: ScriptedServer | undefined;
  beforeEach(() => {
    ws = tempDir('tandem-sec-term-');
    fs.writeFileSync(path.join(ws, 'victim.txt'), 'keep\n');
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    fs.rmSync(ws, { recursive: true, force: true });
  });

  it('visibleControls keeps text, newlines and tabs, and shows every control character', () => {
    assert.equal(visibleControls('a\tb\nc\r\nd'), 'a\tb\nc\nd');
    assert.equal(visibleControls('x\ry'), 'x\\x0dy');
    assert.equal(visibleControls('\u001b[2K'), '\\x1b[2K');
    assert.equal(visibleControls('a\u202eb'), 'a\\u202eb');
    assert.equal(visibleControls('naïve — ✓ 日本'), 'naïve — ✓ 日本');
  });

  it('on a terminal, the approval prompt shows the whole command as bash will run it', async () => {
    server = await ScriptedServer.start([calls(tc('run_command', { command: SPOOF })), text(OSC52)]);
    const stdin = new PassThrough();
    let stdout = '';
    let stderr = '';
    const prompts: string[] = [];
    const code = await runCli({
      argv: ['run', '--workspace', ws, '--base-url', server.url, '--role', 'actor', 'clean up'],
      env: { TANDEM_API_KEY: 'sk-term', TANDEM_MAX_RETRIES: '0', TANDEM_DATA_DIR: path.join(ws, '.data') },
      stdout: (s) => void (stdout += s),
      stderr: (s) => {
        stderr += s;
        if (/\[y\/N\] $/.test(s)) {
          prompts.push(s);
          setImmediate(() => stdin.write('n\n'));
        }
      },
      isTty: true,
      cwd: ws,
      stdin,
    });
    assert.equal(code, 0, stderr);
    assert.equal(prompts.length, 1);
    assert.match(prompts[0]!, /^Allow run: rm -f victim\.txt #\\x0d\\x1b\[2KAllow run: echo hello/);
    assert.doesNotMatch(stdout + stderr, RAW_CONTROL, 'no raw control character reached the terminal');
    assert.match(stdout, /Sure\.\\x1b\]52;c;cm0gLXJmIH4K\\x07/);
    assert.equal(fs.readFileSync(path.join(ws, 'victim.txt'), 'utf8'), 'keep\n');
  });

  it('the built CLI\'s readable output shows control characters from model text, tool summaries and errors', async () => {
    const cli = await buildCli();
    const r = await runCliAgainst(cli, [
      calls(tc('read_file', { path: 'victim.txt\u001b[8m' }), tc('write_file', { path: 'x\r\u001b[2K✓ read a.txt', content: 'x' })),
      { type: 'text', text: OSC52, chunkSize: 3 },
    ], ws, ['go'], {});
    server = r.server;
    assert.equal(r.run.code, 0, r.run.stderr);
    assert.doesNotMatch(r.run.stdout + r.run.stderr, RAW_CONTROL);
    assert.match(r.run.stdout, /\\x1b\]52/);
    // --json stays machine-readable: the same text, escaped by JSON.
    await r.server.close();
    const j = await runCliAgainst(cli, [{ type: 'text', text: OSC52 }], ws, ['--json', 'go'], {});
    server = j.server;
    const texts = j.run.stdout.trim().split('\n').map((l) => JSON.parse(l)).filter((e) => e.type === 'text_appended').map((e) => e.text).join('');
    assert.equal(texts, OSC52);
  });
});
