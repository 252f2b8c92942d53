// Cards for the standalone page: one of each kind for screenshots, and a 10,000-card task for the bench.
let seq = 0;
export const nextSeq = () => ++seq;
export const resetSeq = () => { seq = 0; };

const plan = {
  format_version: '1.0',
  goal: 'Add input validation to the signup form and cover it with tests',
  steps: [
    { step_number: 1, action: 'Read the form handler and its tests', reason: 'Find where input is parsed', tools_needed: ['read_file'], estimated_time: '1 min', files: ['src/signup.ts'] },
    { step_number: 2, action: 'Validate email and password length in `parseSignup`', reason: 'Reject bad input early', tools_needed: ['edit_file'], estimated_time: '3 min', files: ['src/signup.ts'] },
    { step_number: 3, action: 'Add tests for the new checks', reason: 'Prove it', tools_needed: ['write_file', 'run_command'], estimated_time: '4 min', files: ['test/signup.test.ts'] },
  ],
  estimated_total_time: '8 min',
  risks: ['Existing clients may send uppercase emails'],
  prerequisites: ['npm install has been run'],
};

// Tool cards carry the display their tool declares, as the host sends them (src/core/tools, src/protocol/toolDisplay.ts).
export function demoCards(t0 = Date.UTC(2026, 10, 21, 6, 0)) {
  return [
    { kind: 'text', id: 'u1', author: 'user', text: 'Add validation to the signup form <b>please</b>', ts: t0 },
    { kind: 'agent_state', id: 's1', state: 'thinking', ts: t0 + 1 },
    { kind: 'tool_call', id: 't1', call_id: 'c1', tool: 'read_file', summary: 'read src/signup.ts:1-120', display: { kind: 'read', title: 'Read file', verb: 'Read', path: 'src/signup.ts', fold: 'run' }, args: { path: 'src/signup.ts' }, status: 'done', result: '1  export function parseSignup(body) {\n2    return body;\n3  }', ts: t0 + 2 },
    { kind: 'text', id: 'a1', author: 'assistant', text: 'The handler trusts its input. Here is the current code:\n\n```ts\nexport function parseSignup(body: unknown) {\n  return body as Signup;\n}\n```\n\nInjected HTML stays text: <img src=x onerror=alert(1)> and [a bad link](javascript:alert(1)), a [good link](https://example.com).', ts: t0 + 3 },
    { kind: 'plan', id: 'p0', version: 1, plan: { ...plan, goal: 'Old goal' }, errors: [], step_states: {}, superseded: true, ts: t0 + 4 },
    { kind: 'plan', id: 'p1', version: 2, plan, errors: [], step_states: { 1: 'done', 2: 'running' }, executing: true, ts: t0 + 5 },
    { kind: 'question', id: 'q1', question: { question: 'Should emails be lower-cased before they are stored?', context: 'Existing rows contain mixed case.', severity: 'major', options: [{ label: 'Yes, lower-case', value: 'yes', description: 'Migrate existing rows too' }, { label: 'No', value: 'no' }], default: 'yes', allow_custom: true }, status: 'waiting', ts: t0 + 6 },
    { kind: 'tool_call', id: 't2', call_id: 'c2', tool: 'edit_file', summary: 'edit src/signup.ts (2 blocks)', display: { kind: 'edit', title: 'Edit file', verb: 'Edit', done: 'Edited', path: 'src/signup.ts' }, args: {}, status: 'pending', approval: { kind: 'edit', path: 'src/signup.ts', added: 14, removed: 2 }, ts: t0 + 7 },
    { kind: 'tool_call', id: 't3', call_id: 'c3', tool: 'run_command', summary: 'npm test -- signup', display: { kind: 'command', title: 'Run command', verb: 'Run', done: 'Ran', detail: 'npm test -- --grep signup', code: true }, args: {}, status: 'pending', approval: { kind: 'command', command: 'npm test -- --grep signup', cwd: '/home/dev/shop' }, ts: t0 + 8 },
    { kind: 'tool_call', id: 't4', call_id: 'c4', tool: 'write_file', summary: 'write ../outside/notes.md', display: { kind: 'edit', title: 'Write file', verb: 'Write', done: 'Wrote', path: '../outside/notes.md' }, args: {}, status: 'error', error: 'EACCES: permission denied, open /etc/notes.md', approval: { kind: 'outside_workspace', path: '../outside/notes.md', real_path: '/etc/notes.md' }, ts: t0 + 9 },
    { kind: 'error', id: 'e1', message: 'The model endpoint timed out after 60 s without a token', detail: 'POST /v1/chat/completions: idle timeout', retryable: true, ts: t0 + 10 },
    { kind: 'usage', id: 'g1', model: 'gpt-4.1-mini', role: 'planner', tokens_in: 12840, tokens_out: 912, latency_ms: 4210, cost_usd: 0.0066, outcome: 'ok', ts: t0 + 11 },
    { kind: 'mystery', id: 'x1', whatever: true },
    { kind: 'text', id: 'a2', author: 'assistant', text: 'Working on step 2', streaming: true, ts: t0 + 12 },
  ];
}

const words = 'the plan reads files and edits code while tests run quickly across modules with careful review'.split(' ');
function sentence(i, n) {
  let s = '';
  for (let k = 0; k < n; k++) s += words[(i * 7 + k * 3) % words.length] + ' ';
  return s.trim();
}

/** A long task: mostly assistant text of varied length, tool calls, some plans, questions, usage. */
export function bigTask(n, t0 = Date.UTC(2026, 10, 21, 6, 0)) {
  const cards = [];
  for (let i = 0; i < n; i++) {
    const id = `c${i}`;
    const ts = t0 + i * 1000;
    const m = i % 10;
    if (m === 0) cards.push({ kind: 'text', id, author: 'user', text: `Step ${i}: ${sentence(i, 12)}`, ts });
    else if (m <= 4) cards.push({ kind: 'text', id, author: 'assistant', text: `${sentence(i, 20 + (i % 60))}\n\n- item **${i}**\n- \`code_${i}\`\n${i % 3 === 0 ? '\n```js\nconsole.log(' + i + ');\n```\n' : ''}`, ts });
    else if (m <= 7) cards.push({ kind: 'tool_call', id, call_id: `k${i}`, tool: 'read_file', summary: `read src/file${i}.ts`, display: { kind: 'read', title: 'Read file', verb: 'Read', path: `src/file${i}.ts`, fold: 'run' }, args: { path: `src/file${i}.ts` }, status: 'done', result: sentence(i, 40), ts });
    else if (m === 8) cards.push({ kind: 'usage', id, model: 'm', role: 'actor', tokens_in: 1000 + i, tokens_out: 100, latency_ms: 900, cost_usd: 0.001, outcome: 'ok', ts });
    else cards.push(i % 100 === 9 ? { kind: 'plan', id, version: 1, plan, errors: [], step_states: {}, superseded: true, ts } : { kind: 'agent_state', id, state: 'idle', ts });
  }
  return cards;
}
