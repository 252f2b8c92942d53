import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { runCli } from '../../../src/cli/runCli';
import { ScriptedServer, type ScriptStep } from '../../support/scriptedServer';

/** runCli in-process as if on a terminal: each prompt on stderr is answered from `answers`. */
async function onTerminal(server: ScriptedServer, ws: string, args: string[], answers: string[]) {
  const stdin = new PassThrough();
  let stderr = '';
  let stdout = '';
  const prompts: string[] = [];
  const code = await runCli({
    argv: ['run', '--workspace', ws, '--base-url', server.url, ...args],
    env: { TANDEM_API_KEY: 'sk-tty', TANDEM_MAX_RETRIES: '0', TANDEM_DATA_DIR: path.join(ws, '.tandem-test-data') },
    stdout: (s) => void (stdout += s),
    stderr: (s) => {
      stderr += s;
      if (/\[y\/N\] $|Choose a number[^:]*: $/.test(s)) {
        prompts.push(s);
        const a = answers.shift() ?? '';
        setImmediate(() => stdin.write(`${a}\n`));
      }
    },
    isTty: true,
    cwd: ws,
    stdin,
  });
  return { code, stdout, stderr, prompts };
}

describe('tandem CLI on a terminal (no --approve flag)', () => {
  let server: ScriptedServer | undefined;
  let ws: string;
  beforeEach(() => {
    ws = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-tty-'));
  });
  afterEach(async () => {
    await server?.close();
    fs.rmSync(ws, { recursive: true, force: true });
  });

  const writeTwo: ScriptStep[] = [
    { type: 'tool_calls', calls: [{ name: 'write_file', arguments: { path: 'yes.txt', content: 'Y\n' } }] },
    { type: 'tool_calls', calls: [{ name: 'run_command', arguments: { command: 'echo no > no.txt' } }] },
    { type: 'text', text: 'done' },
  ];

  it('asks y/n for each action: y allows it, anything else denies it', async () => {
    server = await ScriptedServer.start(writeTwo);
    const r = await onTerminal(server, ws, ['--role', 'actor', 'go'], ['y', 'n']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.prompts.length, 2);
    assert.match(r.prompts[0]!, /Allow create yes\.txt/);
    assert.match(r.prompts[1]!, /Allow run: echo no > no\.txt/);
    assert.equal(fs.readFileSync(path.join(ws, 'yes.txt'), 'utf8'), 'Y\n');
    assert.equal(fs.existsSync(path.join(ws, 'no.txt')), false);
  });

  it('--approve edits on a terminal allows edits without asking and still asks for commands', async () => {
    server = await ScriptedServer.start(writeTwo);
    const r = await onTerminal(server, ws, ['--role', 'actor', '--approve', 'edits', 'go'], ['y']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.prompts.length, 1);
    assert.match(r.prompts[0]!, /Allow run:/);
    assert.equal(fs.readFileSync(path.join(ws, 'no.txt'), 'utf8'), 'no\n');
  });

  it('--approve never on a terminal denies without asking', async () => {
    server = await ScriptedServer.start(writeTwo);
    const r = await onTerminal(server, ws, ['--role', 'actor', '--approve', 'never', 'go'], []);
    assert.equal(r.prompts.length, 0);
    assert.equal(fs.existsSync(path.join(ws, 'yes.txt')), false);
  });

  it('asks the agent\'s questions on the terminal; Enter takes the default', async () => {
    const question = { question: 'Which one?', severity: 'minor', options: [{ label: 'First', value: 'one' }, { label: 'Second', value: 'two' }], default: 'two', allow_custom: false };
    server = await ScriptedServer.start([
      { type: 'tool_calls', calls: [{ name: 'ask_question', arguments: question }] },
      { type: 'tool_calls', calls: [{ name: 'ask_question', arguments: question }] },
      { type: 'text', text: 'thanks' },
    ]);
    const r = await onTerminal(server, ws, ['plan it'], ['1', '']);
    assert.equal(r.code, 0, r.stderr);
    const toolMsgs = server.chatRequests()[2].messages.filter((m: any) => m.role === 'tool').map((m: any) => m.content);
    assert.deepEqual(toolMsgs, ['The user chose: one (First)', 'The user chose: two (Second)']);
  });
});
