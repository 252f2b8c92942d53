/**
 * Each tool declares its display in its own file (kind, title, a headline from its arguments, how
 * it folds), and every call's card carries it: the webview words cards from it and names no tool.
 */
import * as assert from 'node:assert/strict';
import { ToolCallDisplay, ToolKind } from '../../../src/protocol';
import { presentCall, type Tool } from '../../../src/core/tools/tool';
import { mcpToolRow, tellingArgument, type McpServerHandle } from '../../../src/core/mcp/mcpToolRow';
import { mcpResourceRow } from '../../../src/core/mcp/mcpResourceRow';
import { productTools, SAMPLE_CALLS, toolCard } from './toolSamples';

/** What each built-in's card summary (the CLI's line) said before displays: unchanged. */
const SUMMARIES: Record<string, string> = {
  read_file: 'read src/cart.ts:10-40',
  list_files: 'list src',
  find_files: 'find **/*.test.ts in test',
  search: 'search /parseSignup\\(/ in src (*.ts)',
  diagnostics: 'diagnostics for src/cart.ts',
  find_symbol: 'symbol Cart (class)',
  go_to_definition: 'definition of total in src/cart.ts',
  find_references: 'references to total (src/cart.ts)',
  document_outline: 'outline of src/cart.ts',
  hover_type: 'type of total in src/cart.ts',
  edit_file: 'edit src/cart.ts (1 block)',
  apply_patch: 'patch src/cart.ts',
  write_file: 'write notes.md',
  rename_symbol: 'rename total → sum (src/cart.ts)',
  delete_file: 'delete old.txt',
  run_command: '$ npm test -- --grep cart',
  ask_question: 'ask: Lower-case emails?',
  propose_plan: 'plan: Validate the signup form (1 step)',
  fail_step: 'step failed: the API is gone',
  load_skill: 'load skill release-notes',
};

const server = (name: string): McpServerHandle => ({
  name, connection: () => ({ down: 'not started' }), timeoutMs: () => 1000, trustedForReading: () => false, failed: () => undefined,
});

describe('tool displays', () => {
  it('every tool the product registers declares a display, and its sample call gets a valid card display with a headline', () => {
    const tools = productTools();
    assert.ok(tools.length >= 20, `the product's tools: ${tools.map((t) => t.name).join(', ')}`);
    for (const tool of tools) {
      const d = tool.display;
      assert.ok(d, `${tool.name} declares a display`);
      assert.ok(ToolKind.safeParse(d.kind).success, `${tool.name}: kind ${d.kind}`);
      assert.ok(d.title.trim(), `${tool.name}: a title`);
      const args = SAMPLE_CALLS[tool.name];
      assert.ok(args, `add a sample call for ${tool.name} to test/unit/tools/toolSamples.ts`);
      assert.ok(tool.input.safeParse(args).success, `${tool.name}: the sample call is valid`);
      const card = toolCard('t', tool, args);
      const shown = ToolCallDisplay.parse(card.display);
      assert.ok(shown.verb.trim(), `${tool.name}: a headline`);
      assert.equal(shown.kind, d.kind);
      assert.equal(card.summary, SUMMARIES[tool.name], `${tool.name}: the summary (CLI line) as before`);
    }
  });

  it('the looking-only tools fold into runs; the plan and question tools fold into their own cards; nothing else folds', () => {
    const folds = Object.fromEntries(productTools().map((t) => [t.name, t.display.fold ?? '-']));
    assert.deepEqual(folds, {
      read_file: 'run', list_files: 'run', find_files: 'run', search: 'run', diagnostics: 'run', find_symbol: 'run',
      go_to_definition: 'run', find_references: 'run', document_outline: 'run', hover_type: 'run',
      edit_file: '-', apply_patch: '-', write_file: '-', rename_symbol: '-', delete_file: '-', run_command: '-',
      ask_question: 'own_card', propose_plan: 'own_card', fail_step: '-', load_skill: '-',
    });
  });

  it('a refused call still shows what it asked (its arguments were valid); bad arguments show the bare call; an unknown tool carries no display', () => {
    const write = productTools().find((t) => t.name === 'write_file')!;
    const refused = presentCall(write, { name: 'write_file', arguments: '{"path":"a.txt","content":"x"}' }, undefined, { path: 'a.txt', content: 'x' });
    assert.equal(refused.summary, 'write_file({"path":"a.txt","content":"x"})');
    assert.deepEqual(refused.display, { kind: 'edit', title: 'Write file', verb: 'Write', done: 'Wrote', path: 'a.txt' });
    const bad = presentCall(write, { name: 'write_file', arguments: '{"path":3}' }, undefined, { path: 3 });
    assert.deepEqual(bad.display, { kind: 'edit', title: 'Write file', verb: 'write_file({"path":3})' });
    assert.deepEqual(presentCall(undefined, { name: 'nope', arguments: '{}' }, undefined, {}), { summary: 'nope({})' });
  });

  it('a headline is short: a long command is cut to the card\'s cap, never carried whole', () => {
    const run = productTools().find((t) => t.name === 'run_command')!;
    const command = `echo ${'x'.repeat(5000)}`;
    const d = ToolCallDisplay.parse(toolCard('t', run, { command }).display);
    assert.ok(d.detail!.length <= 2000 && d.detail!.endsWith('…'), `${d.detail!.length}`);
  });

  it('an MCP tool: kind mcp, its server as the tag, the title from its annotations (else its name), the headline from its most telling argument', () => {
    const echo = mcpToolRow(server('everything'), { name: 'echo', inputSchema: { type: 'object' } }) as Tool;
    const card = toolCard('t', echo, { message: 'hello from the workbench' });
    assert.deepEqual(card.display, { kind: 'mcp', title: 'echo', verb: 'Call', done: 'Called', detail: 'echo · hello from the workbench', tag: 'everything' });
    assert.equal(card.summary, 'everything: echo {"message":"hello from the workbench"}', 'the CLI line as before');
    const read = mcpToolRow(server('fs'), { name: 'read_text_file', annotations: { title: 'Read text file' }, inputSchema: { type: 'object' } }) as Tool;
    assert.equal((toolCard('t', read, { tail: 3, path: '/ws/notes.txt' }).display as ToolCallDisplay).detail, 'Read text file · /ws/notes.txt');
    assert.equal((toolCard('t', read, {}).display as ToolCallDisplay).detail, 'Read text file');
    const resources = mcpResourceRow(server('docs')) as Tool;
    assert.deepEqual(toolCard('t', resources, { uri: 'docs://a' }).display, { kind: 'mcp', title: 'Resources', verb: 'Read resource', detail: 'docs://a', code: true, tag: 'docs' });
    assert.deepEqual(toolCard('t', resources, {}).display, { kind: 'mcp', title: 'Resources', verb: 'List resources', done: 'Listed resources', tag: 'docs' });
  });

  it('the most telling argument: a path or query first, else the first plain value, one line and capped', () => {
    assert.equal(tellingArgument({ limit: 5, query: 'open issues' }), 'open issues');
    assert.equal(tellingArgument({ Path: 'a.txt', name: 'x' }), 'a.txt');
    assert.equal(tellingArgument({ options: { deep: true }, count: 3 }), '3');
    assert.equal(tellingArgument({ text: 'two\nlines' }), 'two lines');
    assert.equal(tellingArgument({ text: 'y'.repeat(500) })!.length, 80);
    assert.equal(tellingArgument({ nested: { path: 'a' } }), undefined);
  });
});
