/**
 * A plan step's commands are judged by what they are and by what they did, through the built CLI
 * (`--plan`, `--approve plan`, headless, sandbox on):
 * - a declared whole command line (`sed -i s/alpha/ALPHA/ a.txt`) does not cover the same command
 *   with another file (`… a.txt b.txt`), nor does a declared program cover `find … -exec`, `xargs`,
 *   `sh -c` or a chain by its first word: each is an amendment, so the run stops (exit 3);
 * - a declared command that changes a file the step's files do not name (a script) leaves the step
 *   unverified with that file named, never done; so does a check that changes files.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { HostEvent } from '../../../src/protocol';
import type { CliRun } from '../../support/cliRunner';
import { cliTestKit } from '../../support/cliRunner';
import { call, text } from '../../support/scriptSteps';

function plan(step: Record<string, unknown>) {
  return {
    format_version: '1.0', goal: 'Capitalise alpha', estimated_total_time: '1m', risks: [], prerequisites: [],
    steps: [{ step_number: 1, action: 'Capitalise alpha in a.txt', reason: 'asked', tools_needed: ['run_command'], estimated_time: '1m', files: ['a.txt'], ...step }],
  };
}

describe('security: a plan step\'s commands count by their full parse and by what they changed (built CLI, --approve plan)', function () {
  this.timeout(60_000);
  const kit = cliTestKit({
    prefix: 'tandem-sec-stepcmd-',
    tmpRoot: '/var/tmp',
    realpath: true,
    setup(ws) {
      fs.writeFileSync(path.join(ws, 'a.txt'), 'alpha\n');
      fs.writeFileSync(path.join(ws, 'b.txt'), 'alpha\n');
      fs.writeFileSync(path.join(ws, 'fix.sh'), 'sed -i s/alpha/ALPHA/ a.txt b.txt\n');
      fs.writeFileSync(path.join(ws, 'check.sh'), 'grep -q ALPHA a.txt && echo checked > check-log.txt\n');
    },
  });

  async function runPlan(step: Record<string, unknown>, command: string): Promise<{ r: CliRun; ev: HostEvent[] }> {
    const file = path.join(kit.ws, '..', `${path.basename(kit.ws)}-plan.json`);
    fs.writeFileSync(file, JSON.stringify(plan(step)));
    try {
      const r = await kit.run([call('run_command', { command }), text('Done.')], ['run', '--role', 'actor', '--plan', file, '--approve', 'plan', '--json', '--no-history']);
      return { r, ev: r.stdout.trim().split('\n').filter(Boolean).map((l) => HostEvent.parse(JSON.parse(l))) };
    } finally {
      fs.rmSync(file, { force: true });
    }
  }

  for (const [declared, ran] of [
    ['sed -i s/alpha/ALPHA/ a.txt', 'sed -i s/alpha/ALPHA/ a.txt b.txt'],
    ['find . -name a.txt', 'find . -name a.txt -exec sed -i s/alpha/ALPHA/ {} ; -o -name b.txt -exec sed -i s/alpha/ALPHA/ {} ;'],
    ['xargs', 'xargs sed -i s/alpha/ALPHA/ < /dev/null'],
    ['sh', 'sh -c "sed -i s/alpha/ALPHA/ a.txt b.txt"'],
    ['sed -i s/alpha/ALPHA/ a.txt', 'sed -i s/alpha/ALPHA/ a.txt && sed -i s/alpha/ALPHA/ b.txt'],
  ]) {
    it(`declared \`${declared}\` does not cover \`${ran}\`: an amendment, nothing ran, exit 3`, async () => {
      const { r } = await runPlan({ commands: [declared], check: 'grep -q ALPHA a.txt' }, ran);
      assert.equal(r.code, 3, r.stderr);
      assert.match(r.stderr, /wants to run/);
      assert.equal(fs.readFileSync(path.join(kit.ws, 'b.txt'), 'utf8'), 'alpha\n', 'b.txt untouched');
    });
  }

  it('a declared command that changed a file the step does not name leaves the step unverified, naming the file', async () => {
    const { r, ev } = await runPlan({ commands: ['sh fix.sh'], check: 'grep -q ALPHA a.txt' }, 'sh fix.sh');
    assert.equal(fs.readFileSync(path.join(kit.ws, 'b.txt'), 'utf8'), 'ALPHA\n', 'the script did change b.txt');
    const steps = ev.filter((e) => e.type.startsWith('step_')).map((e) => (e.type === 'step_unverified' ? `${e.type}:${e.reason}` : e.type));
    assert.equal(steps.length, 2, JSON.stringify(steps));
    assert.match(steps[1]!, /^step_unverified:.*changed b\.txt, which the step's files do not name/, steps[1]);
    assert.notEqual(r.code, 0, 'not a clean success');
  });

  it('a check that changes files is reported: the step is unverified, naming them', async () => {
    const { ev } = await runPlan({ commands: ['sed -i s/alpha/ALPHA/ a.txt'], check: 'sh check.sh' }, 'sed -i s/alpha/ALPHA/ a.txt');
    assert.equal(fs.readFileSync(path.join(kit.ws, 'a.txt'), 'utf8'), 'ALPHA\n');
    const last = ev.filter((e) => e.type.startsWith('step_')).at(-1)!;
    assert.equal(last.type, 'step_unverified', JSON.stringify(last));
    assert.match((last as { reason: string }).reason, /the check `sh check\.sh` changed check-log\.txt/);
  });

  it('the declared command as declared is in scope and the step ends done', async () => {
    const { r, ev } = await runPlan({ commands: ['sed -i s/alpha/ALPHA/ a.txt'], check: 'grep -q ALPHA a.txt' }, 'sed -i s/alpha/ALPHA/ a.txt');
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(ev.filter((e) => e.type.startsWith('step_')).map((e) => e.type), ['step_started', 'step_done']);
  });
});
