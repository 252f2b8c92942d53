/**
 * Instruction files are read by the agent's own read rules, under their own name and their link's
 * target, through the built CLI: `AGENTS.md -> .env`, `CLAUDE.md -> .git/config`,
 * `.github/copilot-instructions.md ->` a `.tandemignore`d file, `.tandem/roles/planner.md ->` a
 * gitignored `secrets.json`, and a nested `pkg/AGENTS.md -> ../.env` met when reading `pkg/x.txt`
 * reach neither the system prompt, nor a tool result, nor the printed output. An ignored folder's own
 * AGENTS.md does not ride along with the refusal to read a file there. Ordinary instruction files,
 * nested ones included, are still read.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cliTestKit } from '../../support/cliRunner';
import { calls, runCliAgainst, tc, text } from './securityKit';

const SECRETS = /hunter2|ghp_SECRETTOKEN|PRIVATE-NOTES|SECRETS-JSON-TOKEN|PRIVATE-AGENTS/;

describe('security: instruction files that link to ignored, secret or git files are not read (built CLI)', function () {
  this.timeout(60_000);
  const kit = cliTestKit({
    prefix: 'tandem-sec-instr-links-',
    setup(ws) {
      const w = (rel: string, body: string) => {
        fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
        fs.writeFileSync(path.join(ws, rel), body);
      };
      const link = (rel: string, target: string) => {
        fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
        fs.symlinkSync(target, path.join(ws, rel));
      };
      w('.env', 'DB_PASSWORD=hunter2\n');
      w('.git/config', '[remote "origin"]\n\turl = https://deploy:ghp_SECRETTOKEN123@example.com/repo.git\n');
      w('.tandemignore', 'private/\n');
      w('.gitignore', 'secrets.json\n');
      w('private/notes.md', 'PRIVATE-NOTES: the staging password is in here\n');
      w('private/AGENTS.md', 'PRIVATE-AGENTS: internal conventions\n');
      w('private/x.txt', 'private x\n');
      w('secrets.json', '{"token": "SECRETS-JSON-TOKEN"}\n');
      link('AGENTS.md', '.env');
      link('CLAUDE.md', '.git/config');
      link('.github/copilot-instructions.md', '../private/notes.md');
      link('.tandem/roles/planner.md', '../../secrets.json');
      w('pkg/x.txt', 'pkg x\n');
      link('pkg/AGENTS.md', '../.env');
      w('.cursorrules', 'CURSOR-RULES-OK: use tabs\n');
      w('docs/y.txt', 'docs y\n');
      w('docs/AGENTS.md', 'DOCS-AGENTS-OK: write short sentences\n');
    },
  });

  it('keeps them out of the prompt, the tool results and the output; ordinary ones are read', async () => {
    const r = await runCliAgainst(kit.cli, [
      calls(tc('read_file', { path: 'pkg/x.txt' })),
      calls(tc('read_file', { path: 'private/x.txt' })),
      calls(tc('read_file', { path: 'docs/y.txt' })),
      text('done'),
    ], kit.ws, ['--role', 'planner', '--approve', 'all', 'look'], {});
    kit.server = r.server;
    assert.equal(r.run.code, 0, r.run.stderr);
    const reqs = r.server.chatRequests();
    const system = reqs[0]!.messages[0].content as string;
    assert.match(system, /CURSOR-RULES-OK/, 'an ordinary instruction file is still in the prompt');
    assert.doesNotMatch(system, SECRETS, system);
    const toolText = (i: number) => reqs[i]!.messages.filter((m: { role: string }) => m.role === 'tool').at(-1).content as string;
    assert.match(toolText(1), /pkg x/);
    assert.match(toolText(2), /Refused: private\/x\.txt is excluded/);
    assert.match(toolText(3), /docs y[\s\S]*DOCS-AGENTS-OK/, 'an ordinary nested AGENTS.md still rides along');
    assert.doesNotMatch(JSON.stringify(reqs), SECRETS, 'nothing secret in any request');
    assert.doesNotMatch(r.run.stdout + r.run.stderr, SECRETS, 'nor in what the CLI printed');
  });
});
