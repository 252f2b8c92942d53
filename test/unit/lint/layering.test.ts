/**
 * The lint stage (scripts/lint.mjs) run as `npm test` runs it, on small trees made here: each layer
 * leak, an import cycle, a loop between the folders of one core layer and a comment pointing
 * outside the repository must fail the stage and be named; a tree that keeps the layers passes.
 * The repository itself is linted by the stage.
 */
import * as assert from 'node:assert/strict';
import { lintTrees } from './lintTree';

const clean: Record<string, string> = {
  'src/protocol/cards.ts': 'export const CARD = 1;\n',
  'src/core/task/agent.ts': "import { CARD } from '../../protocol/cards';\nexport const AGENT = CARD;\n",
  'src/host/node/nodeHost.ts': "import { AGENT } from '../../core/task/agent';\nexport const HOST = AGENT;\n",
  'src/host/vscode/session.ts': "import { HOST } from '../node/nodeHost';\nexport const SESSION = HOST;\n",
  'src/panel/view.ts': "import { CARD } from '../protocol/cards';\nexport const VIEW = CARD;\n",
  'webview-ui/src/main.tsx': "import { CARD } from '../../src/protocol/cards';\nexport const UI = CARD;\n",
};

describe('lint stage: layers, cycles and outside references', () => {
  const { make, lint } = lintTrees('tandem-lint-');

  it('passes a tree that keeps the layers, and ends with the stage line', () => {
    const r = lint(make(clean));
    assert.equal(r.status, 0, r.out);
    assert.match(r.out, /^\d+ passed, 0 failed$/m);
  });

  it('fails and names each leak: core → host, webview → host, host/vscode → panel', () => {
    const r = lint(make({
      ...clean,
      'src/core/task/agent.ts': "import { HOST } from '../../host/node/nodeHost';\nexport const AGENT = HOST;\n",
      'src/host/node/nodeHost.ts': 'export const HOST = 1;\n',
      'webview-ui/src/main.tsx': "import { HOST } from '../../src/host/node/nodeHost';\nexport const UI = HOST;\n",
      'src/host/vscode/session.ts': "import { VIEW } from '../../panel/view';\nexport const SESSION = VIEW;\n",
    }));
    assert.equal(r.status, 1, r.out);
    assert.match(r.out, /✗ src\/core imports only src\/core, src\/protocol\n\s+src\/core\/task\/agent\.ts → src\/host\/node\/nodeHost\.ts/);
    assert.match(r.out, /✗ webview-ui imports only webview-ui, src\/protocol\n\s+webview-ui\/src\/main\.tsx → src\/host\/node\/nodeHost\.ts/);
    assert.match(r.out, /✗ src\/host\/vscode imports only [^\n]*\n\s+src\/host\/vscode\/session\.ts → src\/panel\/view\.ts/);
    assert.match(r.out, /^\d+ passed, 3 failed$/m);
  });

  it('counts a type-only import and `vscode` in src/core as leaks', () => {
    const r = lint(make({
      ...clean,
      'node_modules/@types/vscode/package.json': '{"name":"@types/vscode","version":"1.0.0","types":"index.d.ts"}\n',
      'node_modules/@types/vscode/index.d.ts': "declare module 'vscode' { export const version: string; }\n",
      'src/core/task/agent.ts': "import type { Thing } from '../../panel/thing';\nimport * as vscode from 'vscode';\nexport const AGENT: Thing = vscode.version;\n",
      'src/panel/thing.ts': 'export type Thing = string;\n',
    }));
    assert.equal(r.status, 1, r.out);
    assert.match(r.out, /src\/core\/task\/agent\.ts → src\/panel\/thing\.ts/);
    assert.match(r.out, /✗ src\/core never imports vscode/);
  });

  it('fails on an import cycle', () => {
    const r = lint(make({
      ...clean,
      'src/protocol/cards.ts': "import { EVENT } from './events';\nexport const CARD = EVENT;\n",
      'src/protocol/events.ts': "import { CARD } from './cards';\nexport const EVENT = 1; export const again = () => CARD;\n",
    }));
    assert.equal(r.status, 1, r.out);
    assert.match(r.out, /✗ no import cycles\n\s+src\/protocol\/(cards|events)\.ts → /);
  });

  it('fails on a comment pointing at the design document or an issue, not on a string that says so', () => {
    const r = lint(make({
      ...clean,
      'src/core/task/agent.ts': "import { CARD } from '../../protocol/cards';\n// Planner first (see DESIGN §4).\nexport const AGENT = CARD;\n",
      'test/unit/agent.test.ts': "/**\n * Fixed in\n * issue 12.\n */\nexport const title = 'issue 12: DESIGN §4 as data';\n",
    }));
    assert.equal(r.status, 1, r.out);
    assert.match(r.out, /src\/core\/task\/agent\.ts:2: a comment points at the design document/);
    assert.match(r.out, /test\/unit\/agent\.test\.ts:3: a comment points at an issue number/);
    assert.doesNotMatch(r.out, /agent\.test\.ts:5/);
  });

  it('fails on a comment citing a numbered lesson of notes kept elsewhere, and names it', () => {
    const r = lint(make({
      ...clean,
      'src/core/task/agent.ts': "import { CARD } from '../../protocol/cards';\n/** Kill the whole tree (peers lesson 3). */\nexport const AGENT = CARD;\n",
      'src/host/node/nodeHost.ts': "import { AGENT } from '../../core/task/agent';\n// Snapshot only touched files (peers.md lesson 9).\nexport const HOST = AGENT;\nexport const said = 'peers lesson 3';\n",
    }));
    assert.equal(r.status, 1, r.out);
    assert.match(r.out, /src\/core\/task\/agent\.ts:2: a comment points at a numbered lesson of notes outside the repository/);
    assert.match(r.out, /src\/host\/node\/nodeHost\.ts:2: a comment points at a numbered lesson of notes outside the repository/);
    assert.doesNotMatch(r.out, /nodeHost\.ts:4/, 'a string is not a comment');
  });

  it('fails on an import upward between the layers inside src/core, and names it', () => {
    const r = lint(make({
      ...clean,
      'src/core/runtime/taskRuntime.ts': "import { AGENT } from '../task/agent';\nexport const RUNTIME = AGENT;\n",
      'src/core/llm/llmClient.ts': "import { RUNTIME } from '../runtime/taskRuntime';\nexport const LLM = RUNTIME;\n",
      'src/core/tools/readFile.ts': "import type { Step } from '../plans/step';\nexport const READ: Step | undefined = undefined;\n",
      'src/core/plans/step.ts': 'export type Step = { n: number };\n',
    }));
    assert.equal(r.status, 1, r.out);
    assert.match(r.out, /✗ src\/core: ports and llm imports no layer above it [^\n]*\n\s+src\/core\/llm\/llmClient\.ts → src\/core\/runtime\/taskRuntime\.ts/);
    assert.match(r.out, /✗ src\/core: tools, context and knowledge imports no layer above it [^\n]*\n\s+src\/core\/tools\/readFile\.ts → src\/core\/plans\/step\.ts/, 'a type-only import upward counts too');
    assert.doesNotMatch(r.out, /taskRuntime\.ts → src\/core\/task\/agent\.ts/, 'the runtime may import the task below it');
    assert.match(r.out, /^\d+ passed, 2 failed$/m);
  });

  it('fails on a loop between folders of one core layer, names each import of it, and passes once it is cut', () => {
    // tools/ and knowledge/ share a layer, so no layer rule sees tools → knowledge → tools.
    const loop = {
      ...clean,
      'src/core/tools/loadSkill.ts': "import { SKILLS } from '../knowledge/skills';\nexport const LOAD = SKILLS;\n",
      'src/core/knowledge/skills.ts': "import type { Tool } from '../tools/tool';\nexport const SKILLS = 1; export type T = Tool;\n",
      'src/core/tools/tool.ts': 'export type Tool = { name: string };\n',
    };
    const r = lint(make(loop));
    assert.equal(r.status, 1, r.out);
    assert.match(r.out, /✗ no loop between the folders of one src\/core layer\n\s+knowledge → tools → knowledge: src\/core\/knowledge\/skills\.ts → src\/core\/tools\/tool\.ts; src\/core\/tools\/loadSkill\.ts → src\/core\/knowledge\/skills\.ts/);
    assert.doesNotMatch(r.out, /✗ no import cycles/, 'no file imports itself round: only the folders loop');
    assert.match(r.out, /^\d+ passed, 1 failed$/m);
    const { 'src/core/tools/loadSkill.ts': _moved, ...rest } = loop;
    const cut = lint(make({ ...rest, 'src/core/knowledge/loadSkill.ts': "import { SKILLS } from './skills';\nexport const LOAD = SKILLS;\n" }));
    assert.equal(cut.status, 0, cut.out);
  });

  it('fails on a core file in no layer: a loose file or a folder the layer map does not name', () => {
    const r = lint(make({
      ...clean,
      'src/core/helpers.ts': 'export const H = 1;\n',
      'src/core/misc/thing.ts': 'export const T = 1;\n',
    }));
    assert.equal(r.status, 1, r.out);
    assert.match(r.out, /✗ every src\/core file is in a core layer\n\s+src\/core\/helpers\.ts[^\n]*\n\s+src\/core\/misc\/thing\.ts/);
  });
});
