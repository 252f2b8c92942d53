/**
 * A card's headline comes from the display its tool declared (carried on the card), not from the
 * webview knowing tools by name: for every built-in tool it reads as it did when the webview held
 * a switch on tool names (kept below as the reference), and an MCP tool now gets a real one.
 */
import assert from 'node:assert/strict';
import { loadWebviewModule } from './loadWebviewModule';
import { productTools, sampleCard, SAMPLE_CALLS, toolCard } from '../tools/toolSamples';
import { mcpToolRow } from '../../../src/core/mcp/mcpToolRow';
import type { Tool } from '../../../src/core/tools/tool';

type H = typeof import('../../../webview-ui/src/ui/cards/toolHeadline');

/** The webview's headline before tools declared their display (its switch on tool names), verbatim. */
function headlineBefore(card: any): object {
  const str = (x: unknown): string | undefined => (typeof x === 'string' && x.trim() !== '' ? x : undefined);
  const a = (card.args && typeof card.args === 'object' ? card.args : {}) as Record<string, unknown>;
  const done = card.status === 'done';
  const path = str(a.path) ?? card.approval?.path;
  switch (card.tool) {
    case 'read_file': {
      const from = typeof a.offset === 'number' ? a.offset : undefined;
      const lines = from !== undefined ? `lines ${from}${typeof a.limit === 'number' ? `–${from + a.limit - 1}` : '+'}` : undefined;
      return { verb: 'Read', path, ...(lines ? { rest: lines } : {}) };
    }
    case 'load_skill': return { verb: done ? 'Loaded skill' : 'Load skill', rest: str(a.name) };
    case 'list_files': return { verb: done ? 'Listed' : 'List', path: path ?? '.' };
    case 'find_files': return { verb: done ? 'Found files' : 'Find files', rest: str(a.pattern), restIsCode: true, ...(str(a.path) ? { path: str(a.path) } : {}) };
    case 'search': return { verb: done ? 'Searched for' : 'Search for', rest: str(a.pattern), restIsCode: true, ...(str(a.path) ? { path: str(a.path) } : {}) };
    case 'write_file': return { verb: done ? 'Wrote' : 'Write', path };
    case 'edit_file': return { verb: done ? 'Edited' : 'Edit', path };
    case 'apply_patch': return { verb: done ? 'Patched' : 'Patch', path };
    case 'delete_file': return { verb: done ? 'Deleted' : 'Delete', path };
    case 'run_command': {
      const command = card.approval?.command ?? str(a.command) ?? card.summary;
      const exit = card.exit;
      const suffix = !exit || exit.outcome === 'success' ? undefined : exit.outcome === 'failed' ? `exit ${exit.code ?? '?'}` : exit.outcome === 'timed_out' ? 'timed out' : 'killed';
      return { verb: done || exit ? 'Ran' : 'Run', rest: command, restIsCode: true, ...(suffix ? { suffix } : {}) };
    }
    default: {
      const mcp = /^[A-Za-z0-9_-]+?__(.+)$/.exec(card.tool);
      if (mcp) return { verb: done ? 'Called' : 'Call', rest: mcp[1]! };
      return { verb: card.summary };
    }
  }
}

/** Undefined fields dropped, as the DOM never sees them. */
const defined = (o: object) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

describe('tool-call headlines from the tools\' own displays', () => {
  let M: H;
  before(async () => {
    M = await loadWebviewModule<H>('webview-ui/src/ui/cards/toolHeadline.ts');
  });

  it('every built-in tool\'s card reads as before, asked, running, done and failed', () => {
    const approvals: Record<string, object> = {
      edit_file: { kind: 'edit', path: 'src/cart.ts' }, apply_patch: { kind: 'edit', path: 'src/cart.ts' }, write_file: { kind: 'create', path: 'notes.md' },
      delete_file: { kind: 'delete', path: 'old.txt' }, run_command: { kind: 'command', command: 'npm test -- --grep cart' },
    };
    for (const tool of productTools()) {
      for (const status of ['pending', 'running', 'done', 'error']) {
        const card = sampleCard('t', tool.name, status, approvals[tool.name] ? { approval: approvals[tool.name] } : {});
        assert.deepEqual(defined(M.toolHeadline(card as never)), defined(headlineBefore(card)), `${tool.name} (${status})`);
      }
    }
  });

  it('a command: how it ended, and the past tense once it exited even as an error', () => {
    for (const [status, exit] of [['done', { outcome: 'success', code: 0 }], ['error', { outcome: 'failed', code: 3 }], ['error', { outcome: 'timed_out', code: null }], ['error', { outcome: 'killed', code: null }]] as const) {
      const card = sampleCard('t', 'run_command', status, { exit });
      assert.deepEqual(defined(M.toolHeadline(card as never)), defined(headlineBefore(card)), `${exit.outcome}`);
    }
    assert.deepEqual(M.toolHeadline(sampleCard('t', 'run_command', 'error', { exit: { outcome: 'failed', code: 3 } }) as never), { verb: 'Ran', rest: 'npm test -- --grep cart', restIsCode: true, suffix: 'exit 3' });
  });

  it('list_files without a path lists the workspace root, as before', () => {
    const list = productTools().find((t) => t.name === 'list_files')!;
    const card = toolCard('t', list, {});
    assert.deepEqual(defined(M.toolHeadline(card as never)), defined(headlineBefore(card)));
    assert.equal(M.toolHeadline(card as never).path, '.');
    assert.ok(SAMPLE_CALLS.list_files);
  });

  it('an MCP tool\'s card now says what it was called with (before: only the tool\'s name)', () => {
    const echo = mcpToolRow({ name: 'everything', connection: () => ({ down: 'x' }), timeoutMs: () => 1, trustedForReading: () => false, failed: () => undefined }, { name: 'echo', inputSchema: { type: 'object' } }) as Tool;
    const card = toolCard('t', echo, { message: 'hello from the workbench' }, 'done');
    assert.deepEqual(headlineBefore(card), { verb: 'Called', rest: 'echo' });
    assert.deepEqual(M.toolHeadline(card as never), { verb: 'Called', rest: 'echo · hello from the workbench' });
  });

  it('a card saved before cards carried a display still reads: what it asked approval for, else its summary', () => {
    const old = (tool: string, extra: object) => ({ kind: 'tool_call', id: 't', call_id: 'c', tool, summary: 'read src/a.ts:1-40', args: { path: 'src/a.ts' }, status: 'done', ts: 1, ...extra });
    assert.deepEqual(M.toolHeadline(old('run_command', { summary: '$ ls', approval: { kind: 'command', command: 'ls -la' } }) as never), { verb: 'Ran', rest: 'ls -la', restIsCode: true });
    assert.deepEqual(M.toolHeadline(old('edit_file', { approval: { kind: 'edit', path: 'src/a.ts' } }) as never), { verb: 'Edited', path: 'src/a.ts' });
    assert.deepEqual(M.toolHeadline(old('read_file', {}) as never), { verb: 'read src/a.ts:1-40' });
    assert.deepEqual(M.toolHeadline(old('fs__read_text_file', { status: 'pending' }) as never), { verb: 'Call', rest: 'read_text_file' });
  });
});
