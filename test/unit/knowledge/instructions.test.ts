import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { harness, type Harness } from '../../support/agentHarness';
import { FAKE_WORKSPACE_TOOLS } from '../../support/fakeTools';
import { readFileTool } from '../../../src/core/tools/readFile';
import type { ScriptStep } from '../../support/scriptedServer';
import { rebuildMessages } from '../../../src/core/history/rebuildMessages';
import { instructionsHeadline } from '../../../src/protocol';
import { PRODUCT_ROLES } from '../../../src/core/roles/roles';
import { text } from '../../support/scriptSteps';

const read = (p: string): ScriptStep => ({ type: 'tool_calls', calls: [{ name: 'read_file', arguments: { path: p } }] });
const systemOf = (h: Harness, n: number): string => h.server.chatRequests()[n].messages[0].content;

const ALL_SOURCES = {
  'AGENTS.md': 'Use tabs. AGENTS-ROOT-MARK',
  '.github/copilot-instructions.md': 'COPILOT-MARK',
  'CLAUDE.md': 'CLAUDE-MARK',
  '.clinerules/01-style.md': 'CLINE-STYLE-MARK',
  '.clinerules/02-tests.md': 'CLINE-TESTS-MARK',
  '.cursorrules': 'CURSOR-MARK',
  '.tandem/roles/planner.md': 'PLANNER-ONLY-MARK',
  '.tandem/roles/actor.md': 'ACTOR-ONLY-MARK',
};

describe('project instructions (real files, scripted server)', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('reads every source in the documented order into the system prompt, once, the same on every request, and shows one line', async () => {
    h = await harness({ steps: [read('CLAUDE.md'), text('one'), text('two')], tools: [readFileTool], role: 'actor', files: { ...ALL_SOURCES, 'src/a.ts': 'x' } });
    await h.agent.send('first');
    await h.agent.send('second');
    const system = systemOf(h, 0);
    const order = ['AGENTS-ROOT-MARK', 'COPILOT-MARK', 'CLAUDE-MARK', 'CLINE-STYLE-MARK', 'CLINE-TESTS-MARK', 'CURSOR-MARK', 'ACTOR-ONLY-MARK'].map((m) => system.indexOf(m));
    assert.ok(order.every((i) => i > 0), `every source is in the prompt: ${order}`);
    assert.deepEqual([...order].sort((a, b) => a - b), order, 'in the documented order, the role file last');
    assert.ok(!system.includes('PLANNER-ONLY-MARK'), "another role's file is not in the Actor's prompt");
    assert.match(system, /^You are Tandem's Actor/, 'the role prompt comes first');
    // Stable: the endpoint's prompt cache sees the same system text on every request of the task.
    assert.deepEqual(h.server.chatRequests().map((r) => r.messages[0].content), [system, system, system]);
    const cards = h.cardsOf('instructions');
    assert.equal(cards.length, 1, 'one instructions line per task');
    assert.deepEqual(cards[0]!.files.map((f) => f.path), ['AGENTS.md', '.github/copilot-instructions.md', 'CLAUDE.md', '.clinerules/01-style.md', '.clinerules/02-tests.md', '.cursorrules', '.tandem/roles/actor.md']);
    assert.equal(instructionsHeadline(cards[0]!), 'Using instructions from AGENTS.md (+6)');
    assert.ok(system.includes(cards[0]!.text), 'the card shows exactly the text the model got');
    // Shown before the model's first answer.
    const kinds = h.agent.cards().map((c) => c.kind);
    assert.ok(kinds.indexOf('instructions') < kinds.indexOf('tool_call'));
  });

  it("adds a role's own file to that role's prompt only, and a role switch with other files shows them", async () => {
    h = await harness({ steps: [text('p'), text('a')], tools: FAKE_WORKSPACE_TOOLS, role: 'planner', files: { 'AGENTS.md': 'ROOT', '.tandem/roles/planner.md': 'PLANNER-ONLY-MARK' } });
    await h.agent.send('plan');
    h.agent.setRole('actor');
    await h.agent.send('act');
    assert.match(systemOf(h, 0), /PLANNER-ONLY-MARK/);
    assert.doesNotMatch(systemOf(h, 1), /PLANNER-ONLY-MARK/);
    assert.match(systemOf(h, 1), /ROOT/);
    assert.deepEqual(h.cardsOf('instructions').map((c) => c.files.map((f) => f.path)), [['AGENTS.md', '.tandem/roles/planner.md'], ['AGENTS.md']]);
  });

  it('a setting turns one source off, and the others stay', async () => {
    h = await harness({
      steps: [text('ok')], tools: FAKE_WORKSPACE_TOOLS, files: ALL_SOURCES,
      settings: (s) => ({ ...s, knowledge: { instructions: { claudeMd: false, roleFiles: false }, instructionMaxTokens: 4000 } }),
    });
    await h.agent.send('go');
    const system = systemOf(h, 0);
    assert.doesNotMatch(system, /CLAUDE-MARK|ACTOR-ONLY-MARK/);
    assert.match(system, /AGENTS-ROOT-MARK/);
    assert.match(system, /CURSOR-MARK/);
  });

  it('caps the instructions at the token budget and says what was cut, in the prompt and on the card', async () => {
    const big = Array.from({ length: 400 }, (_, i) => `Rule ${i}: keep functions short and name them for what they do.`).join('\n');
    h = await harness({
      steps: [text('ok')], tools: FAKE_WORKSPACE_TOOLS, files: { 'AGENTS.md': 'SMALL-ROOT', 'CLAUDE.md': big, '.cursorrules': 'CURSOR-MARK '.repeat(100) },
      settings: (s) => ({ ...s, knowledge: { instructions: {}, instructionMaxTokens: 1000 } }),
    });
    await h.agent.send('go');
    const system = systemOf(h, 0);
    assert.match(system, /SMALL-ROOT/);
    assert.match(system, /Rule 0:/);
    assert.doesNotMatch(system, /Rule 399:/, 'the end of the long file is cut');
    assert.doesNotMatch(system, /CURSOR-MARK/, 'nothing is left for the next file');
    assert.match(system, /Left out to fit the 1,000-token instructions budget: CLAUDE\.md cut \([\d,]+ of [\d,]+ tokens left out\); \.cursorrules left out/);
    const card = h.cardsOf('instructions')[0]!;
    assert.match(card.cut ?? '', /CLAUDE\.md cut/);
    assert.ok(card.files.find((f) => f.path === 'CLAUDE.md')!.cut_tokens! > 0);
    assert.match(instructionsHeadline(card), /some cut to fit/);
    const total = card.files.reduce((n, f) => n + f.tokens, 0);
    assert.ok(total <= 1000, `sent ${total} tokens of instructions`);
  });

  it('with no instruction files the system prompt is the role prompt alone and no line is shown', async () => {
    h = await harness({ steps: [text('ok')], tools: FAKE_WORKSPACE_TOOLS, role: 'planner', files: { 'README.md': 'readme' } });
    await h.agent.send('go');
    const planner = PRODUCT_ROLES.get('planner');
    assert.equal(systemOf(h, 0), planner.systemPrompt({ stepTools: h.agent.tools.stepTools(PRODUCT_ROLES) }));
    assert.equal(h.cardsOf('instructions').length, 0);
  });

  it('a nested AGENTS.md is added with the result of the first call that reaches its folder, once, and survives a resume', async () => {
    h = await harness({
      steps: [read('src/deep/a.ts'), read('src/deep/b.ts'), text('done')],
      tools: [readFileTool], files: { 'AGENTS.md': 'ROOT-MARK', 'src/AGENTS.md': 'NESTED-SRC-MARK', 'src/deep/a.ts': 'a', 'src/deep/b.ts': 'b', 'lib/AGENTS.md': 'LIB-MARK' },
    });
    await h.agent.send('read');
    const [first, second, third] = h.server.chatRequests();
    assert.doesNotMatch(JSON.stringify(first.messages), /NESTED-SRC-MARK/, 'not sent before the agent touches src/');
    const tool1 = second.messages.filter((m: any) => m.role === 'tool');
    assert.equal(tool1.length, 1);
    assert.match(tool1[0].content, /^1\ta\n\n\[Project instructions from src\/AGENTS\.md: they apply to files under src\/ and, there, take precedence/);
    assert.match(tool1[0].content, /NESTED-SRC-MARK/);
    assert.equal(second.messages[0].content, first.messages[0].content, 'the system prompt is not changed mid-task');
    const tool2 = third.messages.filter((m: any) => m.role === 'tool');
    assert.doesNotMatch(tool2[1].content, /NESTED-SRC-MARK/, 'sent once');
    assert.doesNotMatch(JSON.stringify(third.messages), /LIB-MARK/, 'a folder never touched adds nothing');
    const nested = h.cardsOf('instructions').filter((c) => c.nested);
    assert.equal(nested.length, 1);
    assert.equal(instructionsHeadline(nested[0]!), 'Using instructions from src/AGENTS.md for src/');
    // Resumed from history, the model gets the nested instructions where it got them first.
    const rebuilt = rebuildMessages(h.agent.cards());
    const rebuiltTools = rebuilt.filter((m) => m.role === 'tool');
    assert.match(String(rebuiltTools[0]!.content), /NESTED-SRC-MARK/);
    assert.doesNotMatch(String(rebuiltTools[1]!.content), /NESTED-SRC-MARK/);
    assert.doesNotMatch(JSON.stringify(rebuilt), /ROOT-MARK/, 'the root instructions are the system prompt\'s, not replayed');
  });

  it('an AGENTS.md that is a link to a file outside the workspace is not read', async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-outside-'));
    fs.writeFileSync(path.join(outside, 'secret.txt'), 'OUTSIDE-SECRET');
    h = await harness({ steps: [text('ok')], tools: FAKE_WORKSPACE_TOOLS, files: { 'CLAUDE.md': 'CLAUDE-MARK' } });
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(h.ws, 'AGENTS.md'));
    await h.agent.send('go');
    assert.doesNotMatch(systemOf(h, 0), /OUTSIDE-SECRET/);
    assert.match(systemOf(h, 0), /CLAUDE-MARK/);
    fs.rmSync(outside, { recursive: true, force: true });
  });
});
