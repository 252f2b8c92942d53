import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { harness, type Harness } from '../../support/agentHarness';
import { readFileTool } from '../../../src/core/tools/readFile';
import { parseSkillFile } from '../../../src/core/knowledge/skillFile';
import { call, text } from '../../support/scriptSteps';

const systemOf = (h: Harness, n: number): string => h.server.chatRequests()[n].messages[0].content;

const SKILLS = {
  '.tandem/skills/release-notes/SKILL.md': '---\nname: release-notes\ndescription: Write release notes from the git log in the project style.\n---\n# Release notes\nRELEASE-BODY-MARK: group by feature, then fixes. Use template.md.\n',
  '.tandem/skills/release-notes/template.md': '## {version}\n',
  '.github/skills/pdf/SKILL.md': '---\nname: pdf\ndescription: >\n  Fill PDF forms\n  with the bundled script.\nlicense: MIT\n---\nPDF-BODY-MARK run scripts/fill.py\n',
  '.github/skills/pdf/scripts/fill.py': 'print(1)\n',
  '.github/skills/broken/SKILL.md': '# no front matter here\nBROKEN-MARK',
  '.claude/skills/dupe/SKILL.md': '---\nname: pdf\ndescription: A second skill called pdf\n---\nDUPE-MARK',
};

describe('skills (real folders, scripted server)', () => {
  let h: Harness | undefined;
  let userDir: string | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
    if (userDir) fs.rmSync(userDir, { recursive: true, force: true });
    userDir = undefined;
  });

  it('lists only names and descriptions in the prompt; load_skill returns the body and the files; the Planner may load one', async () => {
    userDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-user-skills-'));
    fs.mkdirSync(path.join(userDir, 'my-style'));
    fs.writeFileSync(path.join(userDir, 'my-style', 'SKILL.md'), '---\nname: my-style\ndescription: "My own review checklist: short, direct."\n---\nUSER-BODY-MARK\n');
    h = await harness({
      steps: [call('load_skill', { name: 'release-notes' }), call('read_file', { path: '.tandem/skills/release-notes/template.md' }), text('done')],
      tools: [readFileTool], role: 'planner', files: SKILLS,
      settings: (s) => ({ ...s, knowledge: { instructions: {}, instructionMaxTokens: 4000, userSkillsDir: userDir } }),
    });
    await h.agent.send('write the release notes');
    const system = systemOf(h, 0);
    assert.match(system, /## Skills\n/);
    assert.match(system, /- release-notes: Write release notes from the git log in the project style\./);
    assert.match(system, /- pdf: Fill PDF forms with the bundled script\./, 'a folded YAML description is one line');
    assert.match(system, /- my-style: My own review checklist: short, direct\./, "the user's own folder");
    assert.doesNotMatch(system, /RELEASE-BODY-MARK|PDF-BODY-MARK|USER-BODY-MARK/, 'bodies are not in the prompt');
    assert.doesNotMatch(system, /BROKEN-MARK|broken|DUPE-MARK|A second skill/, 'no front matter: not a skill; a repeated name: the first wins');
    assert.ok(h.server.toolsOffered()[0]!.includes('load_skill'), 'the Planner is offered load_skill (read permission)');
    const [load, readCard] = h.toolCards();
    assert.equal(load!.status, 'done');
    assert.equal(load!.summary, 'load skill release-notes');
    const result = h.server.chatRequests()[1].messages.filter((m: any) => m.role === 'tool')[0].content as string;
    assert.match(result, /^# Skill release-notes \(\.tandem\/skills\/release-notes\/SKILL\.md\)\n# Release notes\nRELEASE-BODY-MARK/);
    assert.match(result, /Files of this skill \(read them with read_file when needed\):\n- \.tandem\/skills\/release-notes\/template\.md$/);
    assert.equal(readCard!.status, 'done', 'the listed file reads with read_file');
    assert.equal(systemOf(h, 2), system, 'the prompt stays the same through the task');
  });

  it('an unknown skill name is a clear tool error naming the skills there are', async () => {
    h = await harness({ steps: [call('load_skill', { name: 'nope' }), text('ok')], tools: [readFileTool], files: SKILLS });
    await h.agent.send('go');
    const card = h.toolCards()[0]!;
    assert.equal(card.status, 'error');
    assert.match(card.error ?? '', /There is no skill named "nope"\. Skills: release-notes, pdf\./);
  });

  it('without skills, load_skill is not offered and nothing is added to the prompt; turning skills off hides them', async () => {
    h = await harness({ steps: [text('ok')], tools: [readFileTool], files: { 'a.txt': 'a' } });
    await h.agent.send('go');
    assert.ok(!h.server.toolsOffered()[0]!.includes('load_skill'));
    assert.doesNotMatch(systemOf(h, 0), /Skills/);
    await h.close();
    h = await harness({ steps: [text('ok')], tools: [readFileTool], files: SKILLS, settings: (s) => ({ ...s, knowledge: { instructions: {}, instructionMaxTokens: 4000, skills: false } }) });
    await h.agent.send('go');
    assert.ok(!h.server.toolsOffered()[0]!.includes('load_skill'));
    assert.doesNotMatch(systemOf(h, 0), /release-notes/);
  });

  it('a skill folder that links out of the workspace is not a skill of the repository', async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-outside-skill-'));
    fs.writeFileSync(path.join(outside, 'SKILL.md'), '---\nname: outsider\ndescription: from outside\n---\nOUTSIDE');
    h = await harness({ steps: [text('ok')], tools: [readFileTool], files: { '.tandem/skills/.keep': '' } });
    fs.symlinkSync(outside, path.join(h.ws, '.tandem', 'skills', 'outsider'));
    await h.agent.send('go');
    assert.doesNotMatch(systemOf(h, 0), /outsider/);
    fs.rmSync(outside, { recursive: true, force: true });
  });

  it('front matter is YAML: quoting, folding and bad YAML are handled by the parser, not guessed', () => {
    const ok = parseSkillFile('---\nname: "a-b"\ndescription: |\n  line one\n  line two\n---\nbody');
    assert.deepEqual(ok, { ok: true, skill: { name: 'a-b', description: 'line one line two', body: 'body' } });
    const bad = parseSkillFile('---\nname: [unclosed\ndescription: x\n---\n');
    assert.equal(bad.ok, false);
    assert.match(!bad.ok ? bad.why : '', /not valid YAML/);
    assert.match((parseSkillFile('---\nname: Has Spaces\ndescription: x\n---\n') as { why: string }).why, /lower-case/);
    assert.match((parseSkillFile('---\nname: ok\n---\n') as { why: string }).why, /description is missing/);
  });
});
