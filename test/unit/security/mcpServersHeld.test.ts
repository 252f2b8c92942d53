/**
 * MCP servers, through the built CLI: two servers whose names fold to the same tool names
 * (`acme.prod`, `acme_prod`) are both refused with a clear message, so neither's tool runs in the
 * other's name (not even with --allow-tool); a tool whose input schema is over the cap is left out
 * and said so; and a stdio server's backgrounded grandchild ends with the run, one that called
 * `setsid` too (its PID namespace).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cliTestKit } from '../../support/cliRunner';
import { killByCommandLine, processRunning } from '../../support/processByCommandLine';
import { call, text } from '../../support/scriptSteps';
import { waitFor } from '../../support/wait';

const TINY = path.resolve(__dirname, '../../../../test/fixtures/mcp/tinyStdioServer.js');
const tool = (name: string, properties: Record<string, unknown> = {}) => ({ name, description: name, inputSchema: { type: 'object', properties } });

describe('security: MCP server names, schema sizes and process groups (built CLI)', function () {
  this.timeout(60_000);
  const kit = cliTestKit({ prefix: 'tandem-sec-mcp-', outside: true, realpath: true });

  const server = (tools: unknown[], late?: string, label?: string) => ({ type: 'stdio', command: process.execPath, args: [TINY, JSON.stringify(tools), late ?? '', label ?? ''] });
  const config = (servers: Record<string, unknown>) => {
    const file = path.join(kit.out, 'mcp.json');
    fs.writeFileSync(file, JSON.stringify({ servers }));
    return file;
  };

  it('acme.prod and acme_prod are both refused with a clear message; --allow-tool runs neither', async () => {
    const file = config({ 'acme.prod': server([tool('deploy')], undefined, 'PROD-SERVER'), acme_prod: server([tool('deploy')], undefined, 'OTHER-SERVER') });
    const r = await kit.run([call('acme_prod__deploy', {}), text('done')], ['run', '--role', 'actor', '--mcp-config', file, '--allow-tool', 'acme_prod__deploy', 'deploy']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /acme\.prod[\s\S]*would be the same as those of the MCP server acme_prod; rename one/);
    assert.match(r.stderr, /acme_prod[\s\S]*would be the same as those of the MCP server acme\.prod; rename one/);
    assert.ok(!kit.server!.toolsOffered()[0]!.includes('acme_prod__deploy'), 'neither tool is offered');
    assert.doesNotMatch(JSON.stringify(kit.server!.chatRequests()), /PROD-SERVER ran|OTHER-SERVER ran/, 'neither ran');
  });

  it('a tool with a 250 KB input schema is left out and said so; the server\'s other tools stay', async () => {
    const big: Record<string, unknown> = {};
    for (let i = 0; i < 5000; i++) big[`field_${i}`] = { type: 'string', description: `the ${i}th field of a very large schema` };
    const toolsFile = path.join(kit.out, 'tools.json');
    fs.writeFileSync(toolsFile, JSON.stringify([tool('huge', big), tool('small')]));
    const file = config({ big: { type: 'stdio', command: process.execPath, args: [TINY, `@${toolsFile}`] } });
    const r = await kit.run([text('done')], ['run', '--role', 'actor', '--mcp-config', file, 'hi']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /huge \(\d+ KB\)/);
    assert.match(r.stderr, /input schema is over 16 KB/);
    const offered = kit.server!.toolsOffered()[0]!;
    assert.ok(offered.includes('big__small') && !offered.includes('big__huge'), offered.join(','));
    assert.ok(JSON.stringify(kit.server!.chatRequests()[0]).length < 100_000, 'the request stays small');
  });

  it('a stdio server\'s backgrounded grandchild ends with the run', async () => {
    const late = path.join(kit.out, 'late.txt');
    const file = config({ kid: server([tool('x')], late) });
    const r = await kit.run([text('done')], ['run', '--role', 'actor', '--mcp-config', file, 'hi']);
    assert.equal(r.code, 0, r.stderr);
    // Told to write now: a grandchild still running would within a tenth of a second.
    fs.writeFileSync(`${late}.go`, '');
    await new Promise((res) => setTimeout(res, 2_000));
    assert.ok(!fs.existsSync(late), 'the grandchild was still running after the CLI exited');
  });

  it('a stdio server\'s grandchild that called setsid ends with the run', async () => {
    // A command line no other process has, to find it from outside the server's PID namespace.
    const seconds = `300.${process.pid}${Date.now() % 100_000}`;
    const file = config({ daemon: { ...server([tool('x')], '', 'daemon'), args: [TINY, JSON.stringify([tool('x')]), '', 'daemon', seconds] } });
    try {
      const r = await kit.run([text('done')], ['run', '--role', 'actor', '--mcp-config', file, 'hi']);
      assert.equal(r.code, 0, r.stderr);
      await waitFor(() => !processRunning(['sleep', seconds]), `the server's setsid grandchild (sleep ${seconds}) to end after the run`, 10_000);
    } finally {
      killByCommandLine(['sleep', seconds]);
    }
  });

  it('a stdio server finds the key neither in its own environment nor in the CLI\'s (/proc/<ppid>/environ)', async () => {
    const KEY = 'sk-mcp-environ-0123456789abcdef';
    const file = config({ snoop: server([tool('environ')]) });
    const r = await kit.run([call('snoop__environ', {}), text('done')], ['run', '--role', 'actor', '--mcp-config', file, '--allow-tool', 'snoop__environ', 'look'], { TANDEM_API_KEY: KEY, OPENAI_API_KEY: KEY });
    assert.equal(r.code, 0, r.stderr);
    const result = kit.server!.chatRequests()[1]!.messages.filter((m: { role: string }) => m.role === 'tool').at(-1).content as string;
    assert.match(result, /\[parent\]\n[\s\S]*PATH=/, result.slice(0, 400));
    // The tool result is masked before the model sees it; check what the server read, unmasked, by length and prefix.
    assert.doesNotMatch(result, /TANDEM_API_KEY=(?!x+\n)|OPENAI_API_KEY=(?!x+\n)/, 'no key value (blanked to x… or absent)');
    assert.doesNotMatch(result, /\*\*\*|redacted|sk-mcp/i, 'not even a masked key: it never was there');
  });
});

