/**
 * Every tool the product registers (the built-in providers and load_skill, which each task adds), with
 * one sample call each: the display tests run them, and cards built here are cards as the host
 * builds them (summary and display from the tool itself). A new tool needs a sample here, or the
 * display test fails naming it.
 */
import { productToolRegistry } from '../../../src/core/tools';
import { loadSkillTool } from '../../../src/core/knowledge/loadSkill';
import { presentCall, type Tool } from '../../../src/core/tools/tool';

export function productTools(): Tool[] {
  return [...productToolRegistry().all(), loadSkillTool({ skills: async () => [] }) as Tool];
}

const plan = {
  format_version: '1.0', goal: 'Validate the signup form', estimated_total_time: '1h', risks: [], prerequisites: [],
  steps: [{ step_number: 1, action: 'Add the check', reason: 'bad input', tools_needed: ['edit_file'], estimated_time: '10m', files: ['src/signup.ts'] }],
};

export const SAMPLE_CALLS: Record<string, Record<string, unknown>> = {
  read_file: { path: 'src/cart.ts', offset: 10, limit: 31 },
  list_files: { path: 'src' },
  find_files: { pattern: '**/*.test.ts', path: 'test' },
  search: { pattern: 'parseSignup\\(', path: 'src', include: '*.ts' },
  diagnostics: { path: 'src/cart.ts' },
  find_symbol: { name: 'Cart', kind: 'class' },
  go_to_definition: { path: 'src/cart.ts', symbol: 'total' },
  find_references: { path: 'src/cart.ts', symbol: 'total' },
  document_outline: { path: 'src/cart.ts' },
  hover_type: { path: 'src/cart.ts', symbol: 'total' },
  edit_file: { path: 'src/cart.ts', edits: [{ old_text: 'a', new_text: 'b' }] },
  apply_patch: { patch: '--- a/src/cart.ts\n+++ b/src/cart.ts\n@@ -1 +1 @@\n-a\n+b\n' },
  write_file: { path: 'notes.md', content: '# Notes\n' },
  rename_symbol: { path: 'src/cart.ts', symbol: 'total', new_name: 'sum' },
  delete_file: { path: 'old.txt' },
  run_command: { command: 'npm test -- --grep cart' },
  ask_question: { question: 'Lower-case emails?', severity: 'major', options: [{ label: 'Yes', value: 'yes' }, { label: 'No', value: 'no' }], default: 'yes', allow_custom: false },
  propose_plan: plan,
  fail_step: { reason: 'the API is gone' },
  load_skill: { name: 'release-notes' },
};

/** A tool-call card for a call of `tool` with `args`, as the dispatcher builds it. */
export function toolCard(id: string, tool: Tool, args: Record<string, unknown>, status = 'done', extra: Record<string, unknown> = {}): Record<string, unknown> {
  const parsed = tool.input.safeParse(args);
  const face = presentCall(tool, { name: tool.name, arguments: JSON.stringify(args) }, parsed.success ? parsed.data : undefined, args);
  return { kind: 'tool_call', id, call_id: `k-${id}`, tool: tool.name, ...face, args, status, ts: 0, ...extra };
}

/** A card of the product tool `name` with its sample call. */
export function sampleCard(id: string, name: string, status = 'done', extra: Record<string, unknown> = {}): Record<string, unknown> {
  const tool = productTools().find((t) => t.name === name);
  if (!tool) throw new Error(`no product tool ${name}`);
  return toolCard(id, tool, SAMPLE_CALLS[name]!, status, extra);
}
