/**
 * Skills are listed once per task without following links; a command can then swap `SKILL.md` (or
 * the whole skill folder) for a link to a file outside the workspace. Through the built CLI,
 * load_skill judges the file it actually opens, so it refuses the swapped ones and never returns the
 * outside text; an untouched skill still loads.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cliTestKit } from '../../support/cliRunner';
import { calls, runCliAgainst, tc, text } from './securityKit';

const skill = (name: string, body: string) => `---\nname: ${name}\ndescription: The ${name} skill.\n---\n${body}\n`;

describe('security: load_skill refuses a SKILL.md swapped for a link after listing (built CLI, Actor, --approve all)', function () {
  this.timeout(60_000);
  const kit = cliTestKit({
    prefix: 'tandem-sec-skill-swap-',
    outside: true,
    tmpRoot: '/var/tmp',
    realpath: true,
    setup(ws, out) {
      for (const n of ['s', 't', 'u']) {
        fs.mkdirSync(path.join(ws, '.tandem', 'skills', n), { recursive: true });
        fs.writeFileSync(path.join(ws, '.tandem', 'skills', n, 'SKILL.md'), skill(n, `${n.toUpperCase()}-INSIDE-BODY`));
      }
      fs.writeFileSync(path.join(out, 'secret.md'), skill('s', 'OUTSIDE-SKILL-BODY'));
      fs.mkdirSync(path.join(out, 'tdir'));
      fs.writeFileSync(path.join(out, 'tdir', 'SKILL.md'), skill('t', 'OUTSIDE-FOLDER-BODY'));
    },
  });

  it('a link swapped in for SKILL.md or for the skill folder is refused; an untouched skill loads', async () => {
    const sk = '.tandem/skills';
    const r = await runCliAgainst(kit.cli, [
      calls(tc('run_command', { command: `rm ${sk}/s/SKILL.md && ln -s ${kit.out}/secret.md ${sk}/s/SKILL.md && mv ${sk}/t ${sk}/t-old && ln -s ${kit.out}/tdir ${sk}/t && echo swapped` })),
      calls(tc('load_skill', { name: 's' })),
      calls(tc('load_skill', { name: 't' })),
      calls(tc('load_skill', { name: 'u' })),
      text('done'),
    ], kit.ws, ['--role', 'actor', '--approve', 'all', 'go'], {});
    kit.server = r.server;
    assert.equal(r.run.code, 0, r.run.stderr);
    const res = r.server.chatRequests().slice(1).map((b) => b.messages.filter((m: { role: string }) => m.role === 'tool').at(-1).content as string);
    assert.match(res[0]!, /swapped/, res[0]);
    assert.match(res[1]!, /The skill "s" can no longer be read: .*(symbolic link|outside)/, res[1]);
    assert.match(res[2]!, /The skill "t" can no longer be read: .*outside/, res[2]);
    assert.match(res[3]!, /U-INSIDE-BODY/, res[3]);
    assert.doesNotMatch(JSON.stringify(r.server.chatRequests()) + r.run.stdout + r.run.stderr, /OUTSIDE-(SKILL|FOLDER)-BODY/);
  });
});
