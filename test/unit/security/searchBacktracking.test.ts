/**
 * A read tool must not be able to freeze the agent: a regex with a back-reference is outside
 * ripgrep's default engine, and the JS engine backtracks exponentially on `^(a+)+\1$` against a
 * line of a's — the event loop would block, and Stop, timeouts and the VS Code extension host with
 * it. The Planner (read-only!) sends exactly that through the built CLI; the turn must end.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ScriptedServer } from '../../support/scriptedServer';
import { buildCli } from '../../support/cliRunner';
import { requireRipgrep } from '../../support/prerequisites';
import { calls, runCliAgainst, tc, tempDir, text } from './securityKit';

describe('security: a catastrophic regex from the model cannot freeze the agent (ripgrep present)', function () {
  this.timeout(60_000);
  let cli: string;
  let ws: string;
  let server: ScriptedServer | undefined;
  before(async function () {
    requireRipgrep();
    cli = await buildCli();
  });
  beforeEach(() => {
    ws = tempDir('tandem-sec-redos-');
    fs.writeFileSync(path.join(ws, 'bait.txt'), `${'a'.repeat(40)}!\nneedle needle\n`);
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    fs.rmSync(ws, { recursive: true, force: true });
  });

  for (const pattern of ['^(a+)+\\1$', '(a|aa)+(?=b)\\1', '^(?:(a+)+)+\\1?!?b']) {
    it(`search /${pattern}/ ends the turn (an error or no match), it does not hang`, async () => {
      const r = await runCliAgainst(cli, [calls(tc('search', { pattern })), text('done')], ws, ['go'], {});
      server = r.server;
      assert.equal(r.run.code, 0, r.run.stderr);
      assert.equal(r.server.chatRequests().length, 2, 'the tool result went back to the model');
      const result = r.server.chatRequests()[1].messages.at(-1).content as string;
      assert.match(result, /No matches|limit|failed/i, result);
    });
  }

  it('look-around and back-references still work where they are cheap', async () => {
    const r = await runCliAgainst(cli, [calls(tc('search', { pattern: '(needle) \\1' }), tc('search', { pattern: 'needle(?= needle)' })), text('done')], ws, ['go'], {});
    server = r.server;
    assert.equal(r.run.code, 0, r.run.stderr);
    const results = r.server.chatRequests()[1].messages.filter((m: { role: string }) => m.role === 'tool').map((m: { content: string }) => m.content);
    for (const res of results) assert.match(res, /bait\.txt\n {2}2: needle needle/, res);
  });
});

describe('security: a catastrophic regex from the model cannot freeze the agent (no ripgrep: the JS engine)', function () {
  this.timeout(90_000);
  let cli: string;
  let ws: string;
  let emptyPath: string;
  let server: ScriptedServer | undefined;
  before(async () => {
    cli = await buildCli();
  });
  beforeEach(() => {
    ws = tempDir('tandem-sec-redos-js-');
    // PATH without rg: the CLI's host finds no ripgrep and every search takes the JS fallback.
    emptyPath = tempDir('tandem-sec-nopath-');
    fs.writeFileSync(path.join(ws, 'bait.txt'), `${'a'.repeat(40)}!\nneedle needle\n`);
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    fs.rmSync(ws, { recursive: true, force: true });
    fs.rmSync(emptyPath, { recursive: true, force: true });
  });

  for (const pattern of ['^(a+)+\\1$', '(a|aa)+(?=b)\\1', '^(?:(a+)+)+\\1?!?b']) {
    it(`search /${pattern}/ ends the turn with 'the pattern took too long; simplify it'`, async () => {
      const r = await runCliAgainst(cli, [calls(tc('search', { pattern })), text('done')], ws, ['go'], { PATH: emptyPath });
      server = r.server;
      assert.equal(r.run.code, 0, r.run.stderr);
      assert.equal(r.server.chatRequests().length, 2, 'the tool result went back to the model');
      const result = r.server.chatRequests()[1].messages.at(-1).content as string;
      assert.match(result, /took too long.*simplify it/s, result);
    });
  }

  it('look-around and back-references work in the JS engine too', async () => {
    const r = await runCliAgainst(cli, [calls(tc('search', { pattern: '(needle) \\1' }), tc('search', { pattern: 'needle(?= needle)' })), text('done')], ws, ['go'], { PATH: emptyPath });
    server = r.server;
    assert.equal(r.run.code, 0, r.run.stderr);
    const results = r.server.chatRequests()[1].messages.filter((m: { role: string }) => m.role === 'tool').map((m: { content: string }) => m.content);
    assert.equal(results.length, 2);
    for (const res of results) assert.match(res, /bait\.txt\n {2}2: needle needle/, res);
  });
});

describe('security: a catastrophic regex cannot freeze the agent (ripgrep without PCRE2: the JS engine)', function () {
  this.timeout(60_000);
  let cli: string;
  let ws: string;
  let binDir: string;
  let server: ScriptedServer | undefined;
  before(async function () {
    requireRipgrep();
    cli = await buildCli();
  });
  beforeEach(() => {
    ws = tempDir('tandem-sec-redos-nopcre-');
    fs.writeFileSync(path.join(ws, 'bait.txt'), `${'a'.repeat(40)}!\nneedle needle\n`);
    // An rg that answers --pcre2 as builds without PCRE2 do; everything else goes to the real one.
    binDir = tempDir('tandem-sec-rg-');
    const rg = path.join(binDir, 'rg');
    fs.writeFileSync(
      rg,
      `#!/bin/sh\nfor a in "$@"; do if [ "$a" = "--pcre2" ]; then echo "PCRE2 is not available in this build of ripgrep." >&2; exit 2; fi; done\nexec '${requireRipgrep()}' "$@"\n`,
    );
    fs.chmodSync(rg, 0o755);
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    fs.rmSync(ws, { recursive: true, force: true });
    fs.rmSync(binDir, { recursive: true, force: true });
  });

  it(`search /^(a+)+\\1$/ ends the turn with 'the pattern took too long; simplify it'`, async () => {
    const r = await runCliAgainst(cli, [calls(tc('search', { pattern: '^(a+)+\\1$' })), text('done')], ws, ['go'], { PATH: binDir });
    server = r.server;
    assert.equal(r.run.code, 0, r.run.stderr);
    const result = r.server.chatRequests()[1].messages.at(-1).content as string;
    assert.match(result, /took too long.*simplify it/s, result);
  });
});
