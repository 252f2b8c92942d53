/**
 * `tandem history` prints saved tasks — the model's text, titles taken from prompts, tool results
 * holding files' contents — back onto a terminal. Like `tandem run`'s readable output, every
 * control character there must arrive made visible: printed raw, `\r\x1b[2K` rewrites what the
 * person reads and OSC 52 sets their clipboard. --json and `export --out FILE` stay byte-exact.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ScriptedServer } from '../../support/scriptedServer';
import { buildCli, runCliProcess } from '../../support/cliRunner';
import { runCliAgainst, tempDir } from './securityKit';

const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const ANSWER = 'Sure.\u001b]52;c;cm0gLXJmIH4K\u0007 \r\u001b[2KAll tests pass \u202eevil\u202c.';
const PROMPT = 'tidy up\u001b]0;pwned\u0007 please';

describe('security: tandem history cannot drive the terminal', function () {
  this.timeout(60_000);
  let cli: string;
  let ws: string;
  let dataDir: string;
  let server: ScriptedServer | undefined;
  let id: string;
  const history = (...args: string[]) => runCliProcess(cli, ['history', '--workspace', ws, ...args], { env: { TANDEM_DATA_DIR: dataDir } });

  before(async () => {
    cli = await buildCli();
  });
  beforeEach(async () => {
    ws = tempDir('tandem-sec-histterm-');
    dataDir = tempDir('tandem-sec-histdata-');
    const r = await runCliAgainst(cli, [{ type: 'text', text: ANSWER }], ws, [PROMPT], { TANDEM_DATA_DIR: dataDir });
    server = r.server;
    assert.equal(r.run.code, 0, r.run.stderr);
    const list = await history('--json');
    assert.equal(list.code, 0, list.stderr);
    id = (JSON.parse(list.stdout.trim().split('\n')[0]!) as { id: string }).id;
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    fs.rmSync(ws, { recursive: true, force: true });
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('show, export and the list print control characters as visible escapes', async () => {
    for (const args of [['show', id], ['export', id], []]) {
      const r = await history(...args);
      assert.equal(r.code, 0, r.stderr);
      assert.doesNotMatch(r.stdout + r.stderr, RAW_CONTROL, `history ${args.join(' ')}`);
      if (args.length) {
        assert.match(r.stdout, /Sure\.\\x1b\]52;c;cm0gLXJmIH4K\\x07 \\x0d\\x1b\[2KAll tests pass \\u202eevil\\u202c\./, `history ${args.join(' ')}`);
      }
    }
  });

  it('--json and export --out FILE keep the text exactly', async () => {
    const j = await history('show', id, '--json');
    assert.equal(j.code, 0, j.stderr);
    const cards = (JSON.parse(j.stdout) as { cards: { kind: string; text?: string }[] }).cards;
    assert.ok(cards.some((c) => c.kind === 'text' && c.text === ANSWER), j.stdout);
    const file = path.join(ws, 'task.md');
    const e = await history('export', id, '--out', file);
    assert.equal(e.code, 0, e.stderr);
    assert.ok(fs.readFileSync(file, 'utf8').includes(ANSWER));
  });
});
