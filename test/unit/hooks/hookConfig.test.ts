import assert from 'node:assert/strict';
import { matcherRegex, parseHookConfig } from '../../../src/core/userHooks/hookConfig';
import { hookNamesFor, hookToolName } from '../../../src/core/userHooks/hookToolNames';
import { hookToolInput } from '../../../src/core/userHooks/hookInput';

const matches = (matcher: string, tool: string, mcp = false) => hookNamesFor(tool, mcp).some((n) => matcherRegex(matcher)!.test(n));

describe('user hooks: the Claude Code format, matchers and stdin', () => {
  it('reads Claude Code settings.json hooks, and says what it cannot use', () => {
    const p = parseHookConfig({
      hooks: {
        PreToolUse: [{ matcher: 'Write|Edit', hooks: [{ type: 'command', command: 'a', timeout: 5 }, { type: 'prompt', prompt: 'x' }] }],
        Stop: [{ hooks: [{ type: 'command', command: 'b' }] }],
        Notification: [{ hooks: [{ type: 'command', command: 'c' }] }],
      },
    }, 'file.json');
    assert.deepEqual(p.commands.map((c) => [c.event, c.matcher, c.command, c.timeoutMs]), [['PreToolUse', 'Write|Edit', 'a', 5000], ['Stop', '', 'b', 60000]]);
    assert.equal(p.problems.length, 2);
    assert.match(p.problems.join('\n'), /Notification/);
    // The setting holds the events object itself.
    assert.equal(parseHookConfig({ Stop: [{ hooks: [{ type: 'command', command: 'b' }] }] }, 'tandem.hooks').commands.length, 1);
  });

  it("matchers accept Tandem's names and Claude Code's, MCP tools as mcp__server__tool or server__tool", () => {
    assert.ok(matches('Write|Edit', 'write_file'));
    assert.ok(matches('Write|Edit', 'edit_file'));
    assert.ok(matches('MultiEdit', 'edit_file'));
    assert.ok(!matches('Write|Edit', 'read_file'));
    assert.ok(matches('Bash', 'run_command'));
    assert.ok(matches('run_command', 'run_command'));
    assert.ok(matches('Read', 'read_file') && matches('Glob', 'find_files') && matches('Grep', 'search'));
    assert.ok(matches('mcp__github__.*', 'github__create_issue', true));
    assert.ok(matches('github__create_issue', 'github__create_issue', true));
    assert.ok(!matches('mcp__gitlab__.*', 'github__create_issue', true));
    assert.ok(matches('', 'anything') && matches('*', 'anything'));
    assert.ok(!matches('Edit', 'write_file'), 'a plain name matches that name only, not a part of another');
    assert.equal(hookToolName('github__x', true), 'mcp__github__x');
    assert.equal(hookToolName('write_file', false), 'Write');
    assert.equal(hookToolName('diagnostics', false), 'diagnostics');
  });

  it("tool_input carries Claude Code's aliases beside Tandem's arguments", () => {
    const e = hookToolInput('edit_file', { path: 'src/a.ts', edits: [{ old_text: 'a', new_text: 'b' }] }, '/ws');
    assert.equal(e.file_path, '/ws/src/a.ts');
    assert.equal(e.path, 'src/a.ts');
    assert.equal(e.old_string, 'a');
    assert.equal(e.new_string, 'b');
    assert.deepEqual(e.edits, [{ old_text: 'a', new_text: 'b', old_string: 'a', new_string: 'b' }]);
    const w = hookToolInput('write_file', { path: 'x.ts', content: 'hi' }, '/ws');
    assert.equal(w.file_path, '/ws/x.ts');
    assert.equal(w.content, 'hi');
    assert.equal(hookToolInput('run_command', { command: 'ls' }, '/ws').command, 'ls');
  });
});
