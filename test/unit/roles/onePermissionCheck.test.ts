/**
 * One permission check: what a role is offered, what the plan's step tools are, what dispatch lets a
 * call do and what a tooltip says of the role all come from `missingPermissions` / `roleMay`, so they
 * cannot disagree. The case that used to: a read-only shell grants `execute` without the permission —
 * the offer said yes, while a per-call check at dispatch said no.
 */
import assert from 'node:assert/strict';
import { z } from 'zod';
import { PRODUCT_ROLES, type RoleDef } from '../../../src/core/roles/roles';
import { productToolRegistry } from '../../../src/core/tools';
import { withReadOnlyShell } from '../../../src/core/registries/readOnlyShell';
import { PRODUCT_REGISTRIES } from '../../../src/core/registries/registries';
import type { Tool } from '../../../src/core/tools/tool';
import { missingPermissions, roleAccess, roleMay, RoleRegistry, type RoleInfo } from '../../../src/protocol';
import { harness, type Harness } from '../../support/agentHarness';
import { says } from '../../support/fakeTools';
import { calls, tc, text } from '../../support/scriptSteps';

const planner = PRODUCT_ROLES.get('planner');
const actor = PRODUCT_ROLES.get('actor');
const row = (over: Partial<RoleDef>): RoleDef => ({ ...planner, id: 'probe', label: 'Probe', ...over });

/** Every shape a role row can take on permissions and shell. */
const SHAPES: Record<string, RoleDef> = {
  'read, no shell': planner,
  'everything, full shell': actor,
  'read, read-only shell': row({ shell: 'readonly' }),
  'execute permission, no shell': row({ permissions: ['read', 'execute'], shell: 'none' }),
  'write, full shell, no execute permission': row({ permissions: ['read', 'write'], shell: 'full' }),
};


describe('one permission check for dispatch, offers, step tools and the UI', () => {
  it('says what a read-only shell grants and withholds', () => {
    const ro = SHAPES['read, read-only shell']!;
    assert.equal(roleMay(ro, ['read', 'execute']), true, 'commands, in the read-only sandbox');
    assert.deepEqual(missingPermissions(ro, ['write', 'execute', 'delete']), ['write', 'delete']);
    assert.deepEqual(missingPermissions(SHAPES['execute permission, no shell']!, ['execute']), ['execute'], 'no shell, no commands');
    assert.deepEqual(missingPermissions(SHAPES['write, full shell, no execute permission']!, ['execute']), ['execute']);
    assert.deepEqual(missingPermissions(actor, ['read', 'write', 'create', 'delete', 'execute']), []);
  });

  it('offers a role exactly the tools the check allows, for every tool and every shape of role', () => {
    const registry = productToolRegistry();
    for (const [shape, role] of Object.entries(SHAPES)) {
      for (const tool of registry.all()) {
        if (tool.available && !tool.available({ role })) continue;
        const offered = registry.refusalFor(tool, role) === undefined;
        assert.equal(offered, roleMay(role, tool.permissions), `${tool.name} for a role with ${shape}`);
      }
    }
  });

  it('takes the plan\'s step tools from the executing role through the same check', () => {
    const registry = productToolRegistry();
    const expected = registry.all().filter((t) => !t.conversational && roleMay(actor, t.permissions)).map((t) => t.name);
    assert.deepEqual(registry.stepTools(PRODUCT_ROLES), expected);
    assert.ok(expected.includes('run_command') && expected.includes('edit_file'));
  });

  it('gives the read-only shell only to roles the check says change no file, and tooltips say the same', () => {
    const roles = withReadOnlyShell(PRODUCT_REGISTRIES).roles;
    for (const r of roles.list) {
      assert.equal(roleAccess(r), roleMay(r, ['write']) || roleMay(r, ['create']) || roleMay(r, ['delete']) ? 'full access' : 'read-only', r.id);
    }
    assert.deepEqual(roles.list.map((r) => [r.id, r.shell, roleAccess(r)]), [
      ['planner', 'readonly', 'read-only'], ['actor', 'full', 'full access'], ['reviewer', 'none', 'read-only'],
    ]);
  });

  describe('at dispatch', () => {
    let h: Harness | undefined;
    afterEach(async () => { await h?.close(); h = undefined; });

    it('lets a read-only-shell role make a call whose own permissions need `execute` (the offer and dispatch agree)', async () => {
      let ran = 0;
      const probe: Tool<{ what: string }> = {
        name: 'probe_command',
        description: 'runs a probe',
        input: z.object({ what: z.string() }),
        permissions: ['read', 'execute'],
        async permissionsFor() { return ['execute']; },
        readOnly: false,
        display: says((i) => i.what),
        async run() { ran++; return { content: 'probed' }; },
      };
      const roles = new RoleRegistry<RoleDef>([SHAPES['read, read-only shell']!, actor]);
      h = await harness({ roles, role: 'probe', tools: [probe], steps: [calls(tc('probe_command', { what: 'ls' })), text('done')] });
      await h.agent.send('probe it');
      const card = h.toolCards().find((c) => c.tool === 'probe_command');
      assert.equal(card?.status, 'done', card?.error);
      assert.equal(ran, 1);
    });
  });
});
