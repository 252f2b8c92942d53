import * as assert from 'node:assert/strict';
import { z } from 'zod';
import { ROLES } from '../../../src/core/roles';
import { ALL_TOOLS, toolsForRole } from '../../../src/core/tools';

describe('tool registry', () => {
  it('offers the Planner read tools only, and no shell', () => {
    const names = toolsForRole(ROLES.planner).map((t) => t.name).sort();
    assert.deepEqual(names, ['diagnostics', 'find_files', 'list_files', 'read_file', 'search']);
    for (const t of toolsForRole(ROLES.planner)) assert.equal(t.readOnly, true, t.name);
  });

  it('offers the Actor everything, and run_command only to a role with a shell', () => {
    assert.deepEqual(toolsForRole(ROLES.actor).map((t) => t.name), ALL_TOOLS.map((t) => t.name));
    const noShell = { ...ROLES.actor, shell: false };
    assert.equal(toolsForRole(noShell).some((t) => t.name === 'run_command'), false);
  });

  it('has unique names and schemas that convert to JSON Schema for the model', () => {
    assert.equal(new Set(ALL_TOOLS.map((t) => t.name)).size, ALL_TOOLS.length);
    for (const t of ALL_TOOLS) {
      const schema = z.toJSONSchema(t.input, { io: 'input' }) as { type?: string };
      assert.equal(schema.type, 'object', t.name);
    }
  });

  it('rejects bad arguments through zod before running', () => {
    const edit = ALL_TOOLS.find((t) => t.name === 'edit_file')!;
    assert.equal(edit.input.safeParse({ path: 'a', edits: [] }).success, false);
    assert.equal(edit.input.safeParse({ path: 'a', edits: [{ old_text: 1, new_text: 'x' }] }).success, false);
    assert.equal(edit.input.safeParse({ path: 'a', edits: [{ old_text: 'x', new_text: 'y' }] }).success, true);
  });
});
