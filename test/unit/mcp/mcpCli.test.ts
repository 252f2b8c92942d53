import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ScriptedServer, type ScriptStep } from '../../support/scriptedServer';
import { buildCli, runCliProcess, type CliRun } from '../../support/cliRunner';
import { EVERYTHING, FILESYSTEM, pidOf, uniqueTag } from '../../support/mcpReferenceServers';
import { call, text } from '../../support/scriptSteps';

describe('MCP, instructions and skills in the CLI (built bundle, reference servers)', function () {
  this.timeout(60_000);
  let cli: string;
  let server: ScriptedServer | undefined;
  let ws: string;
  let configDir: string;

  before(async () => {
    cli = await buildCli();
  });
  beforeEach(() => {
    ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-mcp-cli-')));
    configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-mcp-config-'));
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    fs.rmSync(ws, { recursive: true, force: true });
    fs.rmSync(configDir, { recursive: true, force: true });
  });

  function config(data: unknown): string {
    const file = path.join(configDir, 'mcp.json');
    fs.writeFileSync(file, JSON.stringify(data));
    return file;
  }
  async function run(steps: ScriptStep[], args: string[], env: Record<string, string> = {}): Promise<CliRun> {
    server = await ScriptedServer.start(steps);
    return runCliProcess(cli, ['run', '--workspace', ws, '--base-url', server.url, ...args], { env: { TANDEM_API_KEY: 'sk-mcp-cli-1', TANDEM_MAX_RETRIES: '0', TANDEM_SKILLS_DIR: path.join(configDir, 'no-user-skills'), ...env }, timeoutMs: 50_000 });
  }
  const toolResults = (n: number): string[] => server!.chatRequests()[n].messages.filter((m: any) => m.role === 'tool').map((m: any) => m.content);

  it('a task uses AGENTS.md, two skills and the filesystem server; the server ends with the run', async () => {
    fs.writeFileSync(path.join(ws, 'AGENTS.md'), 'Answer in one line. AGENTS-MARK');
    fs.mkdirSync(path.join(ws, '.tandem', 'skills', 'summarize'), { recursive: true });
    fs.writeFileSync(path.join(ws, '.tandem', 'skills', 'summarize', 'SKILL.md'), '---\nname: summarize\ndescription: Summarise a notes file.\n---\nRead the notes with the fs server, then summarise. SUMMARIZE-BODY');
    fs.mkdirSync(path.join(ws, '.claude', 'skills', 'tone'), { recursive: true });
    fs.writeFileSync(path.join(ws, '.claude', 'skills', 'tone', 'SKILL.md'), '---\nname: tone\ndescription: Keep a friendly tone.\n---\nBe friendly.');
    fs.writeFileSync(path.join(ws, 'notes.txt'), 'NOTES-CONTENT: ship on Friday\n');
    const tag = uniqueTag();
    const file = config({ servers: { fs: { type: 'stdio', command: process.execPath, args: [FILESYSTEM, ws, tag] } } });
    const r = await run(
      [call('load_skill', { name: 'summarize' }), call('fs__read_text_file', { path: path.join(ws, 'notes.txt') }), text('Ship on Friday.')],
      ['--role', 'actor', '--mcp-config', file, '--allow-tool', 'fs__read_text_file', 'summarise notes.txt'],
    );
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /» Using instructions from AGENTS\.md/);
    assert.match(r.stderr, /» MCP server fs: ready, \d+ tools/);
    const system = server!.chatRequests()[0].messages[0].content as string;
    assert.match(system, /AGENTS-MARK/);
    assert.match(system, /- summarize: Summarise a notes file\.\n- tone: Keep a friendly tone\./);
    const offered = server!.toolsOffered()[0]!;
    assert.ok(offered.includes('load_skill') && offered.includes('fs__read_text_file') && offered.includes('fs__write_file'), offered.join(', '));
    assert.match(toolResults(1)[0]!, /SUMMARIZE-BODY/);
    assert.match(toolResults(2)[1]!, /NOTES-CONTENT: ship on Friday/);
    assert.match(r.stdout, /✓ load skill summarize/);
    assert.match(r.stdout, /✓ fs: read_text_file/);
    assert.match(r.stdout, /Ship on Friday\./);
    assert.equal(pidOf([process.execPath, FILESYSTEM, ws, tag]), undefined, 'the server process ended with the run');
  });

  it('--approve all does not cover an MCP tool that was not named with --allow-tool', async () => {
    const file = config({ servers: { fs: { command: process.execPath, args: [FILESYSTEM, ws] } } });
    const r = await run(
      [call('fs__write_file', { path: path.join(ws, 'owned.txt'), content: 'pwned' }), text('tried')],
      ['--role', 'actor', '--approve', 'all', '--mcp-config', file, 'write it'],
    );
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!fs.existsSync(path.join(ws, 'owned.txt')));
    assert.match(toolResults(1)[0]!, /^Not approved: MCP tools need approval unless you allow the tool by name \(fs__write_file\)/);
  });

  it('an input is taken from TANDEM_MCP_INPUT_<ID>; a missing one keeps the server from starting and says which variable to set', async () => {
    const file = config({
      inputs: [{ type: 'promptString', id: 'api-token', description: 'Token', password: true }],
      servers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'], env: { SERVICE_TOKEN: '${input:api-token}' } } },
    });
    const missing = await run([text('ok')], ['--mcp-config', file, 'hi']);
    assert.equal(missing.code, 0, missing.stderr);
    assert.match(missing.stderr, /» MCP server everything: no value given for \$\{input:api-token\} \(set TANDEM_MCP_INPUT_API_TOKEN\)/);
    await server!.close();
    const given = await run([call('everything__get-env', {}), text('ok')], ['--role', 'actor', '--mcp-config', file, '--allow-tool', 'everything__get-env', 'env'], { TANDEM_MCP_INPUT_API_TOKEN: 'tok-123' });
    assert.equal(given.code, 0, given.stderr);
    assert.match(toolResults(1)[0]!, /"SERVICE_TOKEN": "tok-123"/);
  });

  it('a malformed --mcp-config is bad usage (exit 2); a bad entry is named and the others still start', async () => {
    fs.writeFileSync(path.join(configDir, 'broken.json'), '{ not json');
    const bad = await run([text('ok')], ['--mcp-config', path.join(configDir, 'broken.json'), 'hi']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /tandem: --mcp-config .*broken\.json: .*JSON/);
    await server!.close();
    const file = config({ servers: { 'bad name!': { command: 'x' }, noCommand: { args: [] }, fs: { command: process.execPath, args: [FILESYSTEM, ws] } } });
    const r = await run([text('ok')], ['--mcp-config', file, 'hi']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /server "bad name!": the name may hold only/);
    assert.match(r.stderr, /server "noCommand": command/);
    assert.match(r.stderr, /» MCP server fs: ready/);
  });
});
