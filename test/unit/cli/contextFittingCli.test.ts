/**
 * Context fitting through the built CLI in every mode: `--no-history` included, with
 * TANDEM_CONTEXT_WINDOW honoured, and the user told when their own message was cut.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ScriptedServer } from '../../support/scriptedServer';
import { cliTestKit, runCliProcess } from '../../support/cliRunner';

describe('tandem CLI: context fitting in every mode', function () {
  this.timeout(60_000);
  const kit = cliTestKit({ prefix: 'tandem-ctx-' });

  for (const mode of [['--no-history'], []]) {
    it(`a message larger than TANDEM_CONTEXT_WINDOW is cut to fit and the user is told, once (${mode.join(' ') || 'with history'})`, async () => {
      fs.writeFileSync(path.join(kit.ws, 'small.txt'), 'tiny\n');
      // Two requests in the turn: the message is cut again for the second one.
      kit.server = await ScriptedServer.start([{ type: 'tool_calls', calls: [{ id: 'call_s', name: 'read_file', arguments: { path: 'small.txt' } }] }, { type: 'text', text: 'read it' }]);
      const huge = Array.from({ length: 12_000 }, (_, i) => `word${i % 97}`).join(' ');
      const r = await runCliProcess(kit.cli, ['run', ...mode, '--workspace', kit.ws, '--base-url', kit.server.url, '--model', 'my-local-model', huge], {
        env: { TANDEM_API_KEY: 'sk-x', TANDEM_MAX_RETRIES: '0', TANDEM_CONTEXT_WINDOW: '8000' },
      });
      assert.equal(r.code, 0, r.stderr);
      const sent = JSON.stringify(kit.server.chatRequests()[0].messages);
      assert.ok(sent.length < huge.length, `the request was fitted (${sent.length} chars sent of ${huge.length})`);
      assert.match(sent, /cut to fit/);
      assert.match(JSON.stringify(kit.server.chatRequests()[1].messages), /cut to fit/);
      const told = r.stdout.match(/Your message was too large for my-local-model's 8,000-token window and was cut to fit/g) ?? [];
      assert.equal(told.length, 1, r.stdout);
    });
  }

  it('a tool result too large for the window is cut to fit and the user is told, once per call', async () => {
    fs.writeFileSync(path.join(kit.ws, 'big.txt'), Array.from({ length: 1500 }, (_, i) => `line ${i}: alpha bravo charlie delta echo foxtrot ${i * 7}`).join('\n'));
    fs.writeFileSync(path.join(kit.ws, 'small.txt'), 'tiny\n');
    kit.server = await ScriptedServer.start([
      { type: 'tool_calls', calls: [{ id: 'call_big', name: 'read_file', arguments: { path: 'big.txt' } }] },
      { type: 'tool_calls', calls: [{ id: 'call_small', name: 'read_file', arguments: { path: 'small.txt' } }] },
      { type: 'text', text: 'read both' },
    ]);
    const r = await runCliProcess(kit.cli, ['run', '--no-history', '--role', 'actor', '--workspace', kit.ws, '--base-url', kit.server.url, '--model', 'my-local-model', 'read big.txt then small.txt'], {
      env: { TANDEM_API_KEY: 'sk-x', TANDEM_MAX_RETRIES: '0', TANDEM_CONTEXT_WINDOW: '8000' },
    });
    assert.equal(r.code, 0, r.stderr);
    const sent = kit.server.chatRequests().map((q) => JSON.stringify(q.messages));
    assert.match(sent[1], /cut to fit the model's context window/, 'the model was told');
    assert.match(sent[2], /cut to fit the model's context window/, 'and cut again for the next request');
    const told = r.stdout.match(/The result of read_file \(read big\.txt\) was too large for my-local-model's 8,000-token window and was cut to fit/g) ?? [];
    assert.equal(told.length, 1, `the user was told once (the result is cut again before the third request):\n${r.stdout}`);
  });
});
