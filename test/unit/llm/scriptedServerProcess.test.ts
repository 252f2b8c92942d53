import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LlmClient } from '../../../src/core/llm';

describe('scripted server as a separate process (runScriptedServer)', () => {
  let child: ChildProcess | undefined;
  let dir: string;
  afterEach(() => {
    child?.kill('SIGTERM');
    child = undefined;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('serves a script from a JSON file, prints its URL, accepts more steps and reports what it received', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-script-'));
    const file = path.join(dir, 'script.json');
    fs.writeFileSync(file, JSON.stringify({ steps: [{ type: 'text', text: 'from the file' }] }));
    child = spawn(process.execPath, [path.join(__dirname, '..', '..', 'support', 'runScriptedServer.js'), file], { stdio: ['ignore', 'pipe', 'inherit'] });
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child!.stdout!.on('data', (d) => {
        out += d;
        const m = /^URL (\S+)\n/.exec(out);
        if (m) resolve(m[1]!);
      });
      child!.on('exit', (code) => reject(new Error(`exited ${code}`)));
    });
    const client = new LlmClient({ baseURL: url, apiKey: 'k', maxRetries: 0, idleTimeoutMs: 5000 });
    assert.deepEqual(await client.listModels(), ['scripted-model', 'scripted-model-large']);
    assert.equal((await client.stream({ model: 'm', messages: [{ role: 'user', content: 'one' }] })).text, 'from the file');
    const origin = new URL(url).origin;
    await fetch(`${origin}/__script`, { method: 'POST', body: JSON.stringify({ steps: [{ type: 'tool_calls', calls: [{ name: 'read_file', arguments: { path: 'x' } }] }] }) });
    const r = await client.stream({ model: 'm', messages: [{ role: 'user', content: 'two' }] });
    assert.equal(r.toolCalls[0]!.name, 'read_file');
    const log = (await (await fetch(`${origin}/__requests`)).json()) as { path: string; body: any }[];
    assert.deepEqual(log.filter((x) => x.path.endsWith('/chat/completions')).map((x) => x.body.messages[0].content), ['one', 'two']);
  });
});
