/**
 * The user's hooks through the built CLI, with real hook scripts (bash, python3, node) in the
 * Claude Code `hooks` JSON shape, named with `--hooks FILE`, against the scripted model: what the
 * model is told, what happens to the files, what the CLI says on stderr.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { cliTestKit, runCliProcess } from '../../support/cliRunner';
import { ScriptedServer, planStepOf } from '../../support/scriptedServer';
import { calls, tc, text } from '../../support/scriptSteps';
import { toolResults, userMessages } from '../../support/modelRequests';
import { STEP_WORKSPACE_KINDS, useStepWorkspaceKind } from '../../support/stepWorkspaceKinds';
import { killByCommandLine, processRunning } from '../../support/processByCommandLine';
import { waitFor } from '../../support/wait';

/** Writes `hooks` (the events object) to a file in the outside folder and returns the `--hooks` arguments. */
function hooksFile(dir: string, events: Record<string, unknown>, name = 'hooks.json'): string[] {
  const file = path.join(dir, name);
  fs.writeFileSync(file, JSON.stringify({ hooks: events }, null, 2));
  return ['--hooks', file];
}

/** A script file in the outside folder (the user's own hooks live outside the repository). */
function script(dir: string, name: string, body: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, body, { mode: 0o755 });
  return file;
}

const one = (matcher: string, command: string, timeout?: number) => [{ matcher, hooks: [{ type: 'command', command, ...(timeout ? { timeout } : {}) }] }];

describe('user hooks through the CLI (real bash, python3 and node hooks)', function () {
  this.timeout(60_000);
  const kit = cliTestKit({ prefix: 'tandem-hooks-', outside: true, realpath: true, setup: (ws) => {
    fs.mkdirSync(path.join(ws, 'src'));
    fs.writeFileSync(path.join(ws, 'src', 'a.ts'), 'export const a = 1;\n');
  } });

  it('a PreToolUse hook that exits 2 blocks the call, and its stderr reaches the model as the reason', async () => {
    const hook = script(kit.out, 'no-shell.sh', '#!/bin/bash\ncat >/dev/null\necho "no shell today: use the tests task" >&2\nexit 2\n');
    const r = await kit.run(
      [calls(tc('run_command', { command: 'touch ran.txt' })), text('ok')],
      ['run', '--role', 'actor', '--approve', 'all', '--no-history', ...hooksFile(kit.out, { PreToolUse: one('Bash', `bash ${hook}`) }), 'make a file'],
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(fs.existsSync(path.join(kit.ws, 'ran.txt')), false, 'the blocked command did not run');
    const results = toolResults(kit.server!.chatRequests()[1]);
    assert.match(results.join('\n'), /Blocked by hook: no shell today: use the tests task/);
    assert.match(r.stderr, /Blocked by hook: no shell today/);
  });

  it('a Claude Code Write|Edit hook reading tool_input.file_path blocks one file and allows another', async () => {
    const hook = script(kit.out, 'guard.py', [
      '#!/usr/bin/env python3',
      'import json, sys',
      'data = json.load(sys.stdin)',
      'path = data["tool_input"].get("file_path", "")',
      'if "/generated/" in path:',
      '    print(f"{path} is generated; edit the template instead", file=sys.stderr)',
      '    sys.exit(2)',
      'sys.exit(0)',
      '',
    ].join('\n'));
    const r = await kit.run(
      [calls(tc('write_file', { path: 'generated/out.ts', content: 'x' })), calls(tc('edit_file', { path: 'src/a.ts', edits: [{ old_text: 'a = 1', new_text: 'a = 2' }] })), text('done')],
      ['run', '--role', 'actor', '--approve', 'edits', '--no-history', ...hooksFile(kit.out, { PreToolUse: one('Write|Edit', `python3 ${hook}`) }), 'change things'],
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(fs.existsSync(path.join(kit.ws, 'generated', 'out.ts')), false);
    assert.equal(fs.readFileSync(path.join(kit.ws, 'src', 'a.ts'), 'utf8'), 'export const a = 2;\n');
    assert.match(toolResults(kit.server!.chatRequests()[1]).join('\n'), /Blocked by hook: .*generated\/out\.ts is generated; edit the template instead/);
  });

  it('a PostToolUse hook sees the result, and what it says on exit 2 goes to the model with it', async () => {
    const seen = path.join(kit.out, 'post.json');
    const hook = script(kit.out, 'post.js', [
      "const fs = require('fs');",
      "let s = ''; process.stdin.on('data', (d) => (s += d)).on('end', () => {",
      `  fs.writeFileSync(${JSON.stringify(seen)}, s);`,
      "  process.stderr.write('lint: 1 problem in src/a.ts');",
      '  process.exit(2);',
      '});',
      '',
    ].join('\n'));
    const r = await kit.run(
      [calls(tc('read_file', { path: 'src/a.ts' })), text('done')],
      ['run', '--no-history', ...hooksFile(kit.out, { PostToolUse: one('Read', `node ${hook}`) }), 'read it'],
    );
    assert.equal(r.code, 0, r.stderr);
    const input = JSON.parse(fs.readFileSync(seen, 'utf8'));
    assert.equal(input.hook_event_name, 'PostToolUse');
    assert.equal(input.tool_name, 'Read');
    assert.equal(input.tool_input.file_path, path.join(kit.ws, 'src', 'a.ts'));
    assert.match(input.tool_response.output, /export const a = 1;/);
    assert.equal(input.cwd, kit.ws);
    assert.equal(input.tandem_role, 'planner');
    const result = toolResults(kit.server!.chatRequests()[1]).join('\n');
    assert.match(result, /export const a = 1;/, 'the call ran');
    assert.match(result, /PostToolUse hook: lint: 1 problem in src\/a\.ts/);
  });

  it('a UserPromptSubmit hook adds context to what the model sees', async () => {
    const r = await kit.run(
      [text('ok')],
      ['run', '--no-history', ...hooksFile(kit.out, { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'cat >/dev/null; echo "Current ticket: ABC-123"' }] }] }), 'what am I working on?'],
    );
    assert.equal(r.code, 0, r.stderr);
    const sent = userMessages(kit.server!.chatRequests()[0]).join('\n');
    assert.match(sent, /what am I working on\?/);
    assert.match(sent, /Current ticket: ABC-123/);
  });

  it('a prompt a UserPromptSubmit hook blocked never reaches the model, not even when the task is resumed', async () => {
    const data = path.join(kit.out, 'data');
    const block = `grep -q DROP && { echo "no destructive requests" >&2; exit 2; }; exit 0`;
    const blocked = await kit.run([text('should not be asked')], ['run', ...hooksFile(kit.out, { UserPromptSubmit: [{ hooks: [{ type: 'command', command: block }] }] }), 'DROP the users table'], { TANDEM_DATA_DIR: data });
    assert.equal(kit.server!.chatRequests().length, 0, blocked.stderr);
    assert.match(blocked.stderr, /Blocked by hook: no destructive requests/);
    const id = /\[task (\S+) saved/.exec(blocked.stderr)?.[1];
    assert.ok(id, blocked.stderr);
    // Resumed without the hook: the model sees the new prompt, never the blocked one.
    const resumed = await kit.run([text('hello')], ['run', '--resume', id!, 'list the tables'], { TANDEM_DATA_DIR: data });
    assert.equal(resumed.code, 0, resumed.stderr);
    const sent = userMessages(kit.server!.chatRequests()[0]).join('\n');
    assert.match(sent, /list the tables/);
    assert.doesNotMatch(sent, /DROP the users table/);
  });

  it('permissionDecision allow approves an ordinary edit under --approve never', async () => {
    const allow = `cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"src/ is fine"}}'`;
    const steps = () => [calls(tc('edit_file', { path: 'src/a.ts', edits: [{ old_text: 'a = 1', new_text: 'a = 3' }] })), text('done')];
    // Without the hook, --approve never refuses it.
    const before = await kit.run(steps(), ['run', '--role', 'actor', '--approve', 'never', '--no-history', 'edit']);
    assert.equal(fs.readFileSync(path.join(kit.ws, 'src', 'a.ts'), 'utf8'), 'export const a = 1;\n', before.stderr);
    const r = await kit.run(steps(), ['run', '--role', 'actor', '--approve', 'never', '--no-history', ...hooksFile(kit.out, { PreToolUse: one('Edit', allow) }), 'edit']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(fs.readFileSync(path.join(kit.ws, 'src', 'a.ts'), 'utf8'), 'export const a = 3;\n');
    assert.match(r.stderr, /Allowed by hook: src\/ is fine/);
  });

  it('an allow never gives the Planner a write, nor reaches outside the workspace or a file that runs code', async () => {
    const allow = `cat >/dev/null; echo '{"hookSpecificOutput":{"permissionDecision":"allow"}}'`;
    const args = hooksFile(kit.out, { PreToolUse: one('*', allow) });
    const planner = await kit.run(
      [calls(tc('write_file', { path: 'src/a.ts', content: 'pwned' })), text('done')],
      ['run', '--role', 'planner', '--approve', 'all', '--no-history', ...args, 'write'],
    );
    assert.equal(fs.readFileSync(path.join(kit.ws, 'src', 'a.ts'), 'utf8'), 'export const a = 1;\n', planner.stderr);
    const victim = path.join(kit.out, 'victim.txt');
    const actor = await kit.run(
      [calls(tc('write_file', { path: victim, content: 'pwned' })), calls(tc('write_file', { path: '.vscode/tasks.json', content: '{}' })), text('done')],
      ['run', '--role', 'actor', '--approve', 'never', '--no-history', ...args, 'write'],
    );
    assert.equal(fs.existsSync(victim), false, actor.stderr);
    assert.equal(fs.existsSync(path.join(kit.ws, '.vscode', 'tasks.json')), false, actor.stderr);
    assert.match(actor.stderr, /allow does not reach/);
  });

  it('permissionDecision deny refuses a command under --approve all', async () => {
    const deny = `cat >/dev/null; echo '{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"no installs from the agent"}}'`;
    const r = await kit.run(
      [calls(tc('run_command', { command: 'touch installed.txt' })), text('ok')],
      ['run', '--role', 'actor', '--approve', 'all', '--no-history', ...hooksFile(kit.out, { PreToolUse: one('Bash', deny) }), 'install'],
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(fs.existsSync(path.join(kit.ws, 'installed.txt')), false);
    assert.match(toolResults(kit.server!.chatRequests()[1]).join('\n'), /Blocked by hook: no installs from the agent/);
  });

  it("never runs a repository's .tandem/hooks.json, nor ~/.tandem/hooks.json, unless named with --hooks", async () => {
    const marker = path.join(kit.out, 'ran');
    const events = { UserPromptSubmit: [{ hooks: [{ type: 'command', command: `touch ${marker}` }] }], PreToolUse: one('*', `touch ${marker}`) };
    fs.mkdirSync(path.join(kit.ws, '.tandem'));
    fs.writeFileSync(path.join(kit.ws, '.tandem', 'hooks.json'), JSON.stringify({ hooks: events }));
    const home = path.join(kit.out, 'home');
    fs.mkdirSync(path.join(home, '.tandem'), { recursive: true });
    fs.writeFileSync(path.join(home, '.tandem', 'hooks.json'), JSON.stringify({ hooks: events }));
    const r = await kit.run([calls(tc('read_file', { path: 'src/a.ts' })), text('ok')], ['run', '--no-history', 'hi'], { HOME: home });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(fs.existsSync(marker), false, 'no hook ran');
    // Named, the same file runs.
    const named = await kit.run([text('ok')], ['run', '--no-history', '--hooks', path.join(kit.ws, '.tandem', 'hooks.json'), 'hi'], { HOME: home });
    assert.equal(named.code, 0, named.stderr);
    assert.equal(fs.existsSync(marker), true);
  });

  it('a Stop hook that always exits 2 sends the agent back at most 3 times, then the run ends', async () => {
    const count = path.join(kit.out, 'stops');
    const hook = script(kit.out, 'stop.sh', `#!/bin/bash\ncat >/dev/null\necho x >> ${count}\necho "run the tests first" >&2\nexit 2\n`);
    const r = await kit.run([{ type: 'text', text: 'finished', repeat: true }], ['run', '--no-history', ...hooksFile(kit.out, { Stop: [{ hooks: [{ type: 'command', command: `bash ${hook}` }] }] }), 'go']);
    assert.equal(r.code, 0, r.stderr);
    const requests = kit.server!.chatRequests();
    assert.equal(requests.length, 4, 'the first answer and three more after being sent back');
    assert.match(userMessages(requests[1]).join('\n'), /A Stop hook sent you back to work: run the tests first/);
    assert.equal(fs.readFileSync(count, 'utf8').trim().split('\n').length, 4);
    assert.match(r.stderr, /the turn ends here/);
  });

  it('a hook that hangs is killed at its timeout (with what it started) and the call goes on', async () => {
    // Found by their command lines: the hook runs in a PID namespace of its own, where `$!` means nothing outside.
    const seconds = `300.${process.pid}${Date.now() % 100_000}2`;
    const hook = script(kit.out, 'hang.sh', `#!/bin/bash\nsleep ${seconds} &\nwait\n`);
    try {
      const r = await kit.run(
        [calls(tc('edit_file', { path: 'src/a.ts', edits: [{ old_text: 'a = 1', new_text: 'a = 4' }] })), text('done')],
        ['run', '--role', 'actor', '--approve', 'edits', '--no-history', ...hooksFile(kit.out, { PreToolUse: one('Edit', `bash ${hook}`, 1) }), 'edit'],
      );
      assert.equal(r.code, 0, r.stderr);
      assert.equal(fs.readFileSync(path.join(kit.ws, 'src', 'a.ts'), 'utf8'), 'export const a = 4;\n', 'the call went on to its normal approval');
      assert.match(r.stderr, /Hook failed: PreToolUse hook .* was killed after its timeout of 1 s/);
      await waitFor(() => !processRunning(['bash', hook]) && !processRunning(['sleep', seconds]), 'the hook and its child to be gone', 10_000);
    } finally {
      killByCommandLine(['sleep', seconds]);
    }
  });

  it("a hook's child that called setsid is killed at the hook's timeout too, while the run goes on", async () => {
    // A command line no other process has, to find it from outside the hook's PID namespace.
    const seconds = `300.${process.pid}${Date.now() % 100_000}`;
    const started = path.join(kit.out, 'post-started');
    const go = path.join(kit.out, 'go');
    // PreToolUse starts a daemon and hangs past its 1 s timeout; PostToolUse keeps the run alive
    // until the test has looked, so only the timeout can have ended the daemon.
    const pre = script(kit.out, 'daemon.sh', `#!/bin/sh\nsetsid sleep ${seconds} </dev/null >/dev/null 2>&1 &\nexec sleep 300\n`);
    const post = script(kit.out, 'wait.sh', `#!/bin/sh\ncat >/dev/null\ntouch ${started}\nwhile [ ! -f ${go} ]; do sleep 0.1; done\n`);
    const server = await ScriptedServer.start([calls(tc('edit_file', { path: 'src/a.ts', edits: [{ old_text: 'a = 1', new_text: 'a = 4' }] })), text('done')]);
    kit.server = server;
    const hooks = hooksFile(kit.out, { PreToolUse: one('Edit', `sh ${pre}`, 1), PostToolUse: one('Edit', `sh ${post}`, 30) });
    const run = runCliProcess(kit.cli, ['run', '--workspace', kit.ws, '--base-url', server.url, '--role', 'actor', '--approve', 'edits', '--no-history', ...hooks, 'edit'], { env: { TANDEM_API_KEY: 'sk-x', TANDEM_MAX_RETRIES: '0' }, timeoutMs: 50_000 });
    try {
      await waitFor(() => fs.existsSync(started), 'the PostToolUse hook to start (after the PreToolUse timeout)', 30_000);
      await waitFor(() => !processRunning(['sleep', seconds]), `the hook's setsid child (sleep ${seconds}) to end after the hook's timeout`, 10_000);
    } finally {
      fs.writeFileSync(go, '');
      killByCommandLine(['sleep', seconds]);
    }
    const r = await run;
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /Hook failed: PreToolUse hook .* was killed after its timeout of 1 s/);
  });

  it("a hook's child that called setsid does not outlive the run", async () => {
    const seconds = `300.${process.pid}${Date.now() % 100_000}1`;
    const hook = script(kit.out, 'leave.sh', `#!/bin/sh\ncat >/dev/null\nsetsid sleep ${seconds} </dev/null >/dev/null 2>&1 &\nexit 0\n`);
    try {
      const r = await kit.run([calls(tc('read_file', { path: 'src/a.ts' })), text('ok')], ['run', '--no-history', ...hooksFile(kit.out, { PreToolUse: one('Read', `sh ${hook}`) }), 'read']);
      assert.equal(r.code, 0, r.stderr);
      await waitFor(() => !processRunning(['sleep', seconds]), `the hook's setsid child (sleep ${seconds}) to end once the run ended`, 10_000);
    } finally {
      killByCommandLine(['sleep', seconds]);
    }
  });

  it('the API key is in no hook environment, nor in the environ of the CLI that started it', async () => {
    const key = 'sk-hook-secret-4242-abcdef';
    const dump = path.join(kit.out, 'env');
    const hook = script(kit.out, 'env.py', [
      '#!/usr/bin/env python3',
      'import os, sys',
      'sys.stdin.read()',
      'out = [open("/proc/self/environ", "rb").read()]',
      'pid = os.getppid()',
      // Every ancestor up to init: the CLI is one of them.
      'while pid > 1:',
      '    try:',
      '        out.append(open(f"/proc/{pid}/environ", "rb").read())',
      '    except OSError as e:',
      '        out.append(str(e).encode())',
      '    pid = int(open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[1])',
      `open(${JSON.stringify(dump)}, "wb").write(b"\\n---\\n".join(out))`,
      '',
    ].join('\n'));
    const r = await kit.run([calls(tc('read_file', { path: 'src/a.ts' })), text('ok')], ['run', '--no-history', ...hooksFile(kit.out, { PreToolUse: one('Read', `python3 ${hook}`) }), 'read'], { TANDEM_API_KEY: key });
    assert.equal(r.code, 0, r.stderr);
    const seen = fs.readFileSync(dump, 'latin1');
    assert.match(seen, /CLAUDE_PROJECT_DIR=/, 'the hook ran and dumped its environment');
    assert.ok(seen.split('\n---\n').length >= 2, 'and its ancestors');
    assert.equal(seen.includes(key), false, 'the key is nowhere a hook can read');
  });
});

// Runs on both kinds of step workspace: the copy-on-write view and the worktree it falls back to.
for (const kind of STEP_WORKSPACE_KINDS) {
describe(`on ${kind.name}`, function () {
  useStepWorkspaceKind(kind);

  describe('user hooks in plan steps that run side by side (built CLI, git worktrees)', function () {
    this.timeout(60_000);
    const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' });
    const kit = cliTestKit({ prefix: 'tandem-hooks-graph-', outside: true, realpath: true, setup: (ws) => {
      git(ws, 'init', '-q');
      fs.writeFileSync(path.join(ws, 'README.md'), 'project\n');
      git(ws, 'add', '-A');
      git(ws, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'init');
    } });

    it("a step's hooks run in its worktree (a PostToolUse formatter changes the step's copy), and each step's end runs SubagentStop", async () => {
      const log = path.join(kit.out, 'subagent.jsonl');
      // A formatter as people write them: it rewrites the file the tool wrote, found by tool_input.file_path.
      const format = script(kit.out, 'format.py', [
        '#!/usr/bin/env python3',
        'import json, sys',
        'p = json.load(sys.stdin)["tool_input"]["file_path"]',
        'open(p, "a").write("formatted\\n")',
        '',
      ].join('\n'));
      const hooks = hooksFile(kit.out, {
        PostToolUse: one('Write', `python3 ${format}`),
        // One write per line: the two steps end side by side, and `cat; echo` from both could interleave.
        SubagentStop: [{ hooks: [{ type: 'command', command: `line=$(cat); printf '%s\\n' "$line" >> ${log}` }] }],
      });
      const plan = {
        format_version: '1.0', goal: 'notes', estimated_total_time: '2m', risks: [], prerequisites: [],
        steps: [1, 2].map((n) => ({ step_number: n, action: `Write ${n}.txt`, reason: 'notes', tools_needed: ['write_file'], estimated_time: '1m', files: [`${n}.txt`], check: `test -s ${n}.txt`, depends_on: [] })),
      };
      const planFile = path.join(kit.out, 'plan.json');
      fs.writeFileSync(planFile, JSON.stringify(plan));
      kit.server = await ScriptedServer.start([], {
        lanes: { keyOf: planStepOf, steps: { 1: [calls(tc('write_file', { path: '1.txt', content: 'one\n' })), text('Wrote 1.')], 2: [calls(tc('write_file', { path: '2.txt', content: 'two\n' })), text('Wrote 2.')] } },
        answerDelayMs: 150,
      });
      const r = await runCliProcess(kit.cli, ['run', '--workspace', kit.ws, '--base-url', kit.server.url, '--role', 'actor', '--plan', planFile, '--approve', 'plan', '--no-history', ...hooks], { env: { TANDEM_API_KEY: 'sk-x', TANDEM_MAX_RETRIES: '0' }, timeoutMs: 50_000 });
      assert.equal(r.code, 0, r.stderr);
      // Formatted in the step's copy, then applied back as one change: no conflict with the workspace.
      assert.equal(fs.readFileSync(path.join(kit.ws, '1.txt'), 'utf8'), 'one\nformatted\n');
      assert.equal(fs.readFileSync(path.join(kit.ws, '2.txt'), 'utf8'), 'two\nformatted\n');
      const stops = fs.readFileSync(log, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
      assert.deepEqual(stops.map((s) => [s.hook_event_name, s.plan_step]).sort(), [['SubagentStop', 1], ['SubagentStop', 2]]);
      for (const s of stops) assert.notEqual(s.cwd, kit.ws, 'each ran in its step\'s worktree');
    });
  });
});
}
