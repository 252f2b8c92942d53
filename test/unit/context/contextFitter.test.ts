import assert from 'node:assert/strict';
import { ContextFitter, ContextOverflowError, type Summarizer, type CondenseInfo } from '../../../src/core/context/contextFitter';
import type { ChatMessage } from '../../../src/core/context/chatMessage';
import { modelWindow } from '../../../src/core/context/modelWindows';
import { countTextTokens, tokenizerIsExact } from '../../../src/core/context/tokenCounter';
import { SUMMARY_MARKER, type TaskFacts } from '../../../src/core/context/taskFacts';
import type { Plan } from '../../../src/protocol';

const plan: Plan = {
  format_version: '1.0',
  goal: 'Rename the config loader',
  steps: [
    { step_number: 1, action: 'Rename loadConfig to readConfig in src/config.ts', reason: 'clarity', tools_needed: ['edit_file'], estimated_time: '1m', files: ['src/config.ts'] },
    { step_number: 2, action: 'Update callers', reason: 'keep build green', tools_needed: ['edit_file'], estimated_time: '2m', files: ['src/main.ts'] },
  ],
  estimated_total_time: '3m',
  risks: ['external callers'],
  prerequisites: [],
};

const facts = (): TaskFacts => ({
  plan,
  touchedFiles: [{ path: 'src/config.ts', change: 'modified' }, { path: 'src/new.ts', change: 'created' }],
  questions: [
    { question: 'Keep the old name as an alias?', answer: 'no', status: 'answered' },
    { question: 'Also rename the tests?', status: 'waiting' },
  ],
  decisions: ['User rejected deleting src/legacy.ts'],
});

/** A turn: user asks, assistant calls read_file, tool answers with `resultChars` of code, assistant replies. */
function turn(i: number, resultChars: number): ChatMessage[] {
  const line = `export function f${i}(x: number) { return x * ${i}; } // some code here\n`;
  return [
    { role: 'user', content: `Step ${i}: please look at file${i}.ts` },
    { role: 'assistant', content: null, tool_calls: [{ id: `call_${i}`, type: 'function', function: { name: 'read_file', arguments: JSON.stringify({ path: `src/file${i}.ts` }) } }] },
    { role: 'tool', tool_call_id: `call_${i}`, content: line.repeat(Math.ceil(resultChars / line.length)).slice(0, resultChars) },
    { role: 'assistant', content: `Done with step ${i}.` },
  ];
}

function convo(turns: number, resultChars: number): ChatMessage[] {
  const out: ChatMessage[] = [{ role: 'system', content: 'You are the Actor. Be careful.' }];
  for (let i = 1; i <= turns; i++) out.push(...turn(i, resultChars));
  return out;
}

class FakeSummarizer implements Summarizer {
  calls: ChatMessage[][] = [];
  async summarize(messages: ChatMessage[], model: string) {
    this.calls.push(messages);
    return { text: 'Earlier the agent read several files and renamed things.', model, tokensIn: 100, tokensOut: 20, latencyMs: 1 };
  }
}

describe('context: model windows and tokens', () => {
  it('uses a real tokenizer', () => {
    assert.equal(tokenizerIsExact(), true);
    // "hello world" is 2 tokens in o200k; a character estimate would say 4.
    assert.equal(countTextTokens('hello world'), 2);
  });
  it('knows common models, router names and Ollama tags; the setting wins; unknown is small', () => {
    assert.equal(modelWindow('gpt-4o').window, 128_000);
    assert.equal(modelWindow('gpt-4.1-mini').window, 1_047_576);
    assert.equal(modelWindow('anthropic/claude-3.5-sonnet').window, 200_000);
    assert.equal(modelWindow('qwen2.5-coder:7b').window, 32_768);
    assert.equal(modelWindow('llama3.1:8b').window, 131_072);
    assert.equal(modelWindow('gpt-4o', 4000).window, 4000);
    const u = modelWindow('totally-new-model');
    assert.equal(u.known, false);
    assert.equal(u.window, 8192);
  });
});

describe('context: fitting a request into the window', () => {
  const settings = { contextWindow: 6000, maxTokens: 1000 };

  it('sends a request that fits unchanged', async () => {
    const f = new ContextFitter({ settings: () => settings });
    const msgs = convo(2, 200);
    assert.deepEqual(await f.fit(msgs, 'gpt-4o'), msgs);
  });

  it('elides old tool results first, oldest first, saying so, and keeps the current turn', async () => {
    const s = new FakeSummarizer();
    const f = new ContextFitter({ settings: () => settings, summarizer: s });
    const msgs = convo(4, 4000);
    const out = await f.fit(msgs, 'gpt-4o');
    assert.equal(s.calls.length, 0, 'no summary needed');
    const tools = out.filter((m) => m.role === 'tool').map((m) => m.content as string);
    assert.match(tools[0], /^\[tool result elided: 4000 chars\]$/);
    assert.equal(tools[3].length, 4000, 'the current turn keeps its tool result');
    assert.ok(f.requestTokens(out) <= f.budgetFor('gpt-4o').budget);
  });

  it('condenses the oldest turns into one summary that keeps the plan, files and questions verbatim', async () => {
    const s = new FakeSummarizer();
    const seen: CondenseInfo[] = [];
    const f = new ContextFitter({ settings: () => ({ ...settings, summaryModel: 'gpt-4o-mini' }), summarizer: s, facts, onCondensed: (i) => seen.push(i) });
    const msgs = convo(80, 300);
    const out = await f.fit(msgs, 'gpt-4o');
    assert.equal(s.calls.length, 1);
    assert.equal(seen.length, 1);
    assert.equal(seen[0].summaryModel, 'gpt-4o-mini');
    assert.ok(seen[0].turns > 0 && seen[0].tokensAfter < seen[0].tokensBefore);
    const summary = out.find((m) => m.role === 'user' && String(m.content).startsWith(SUMMARY_MARKER));
    assert.ok(summary, 'a summary message');
    const text = String(summary!.content);
    assert.match(text, /Goal: Rename the config loader/);
    assert.match(text, /1\. Rename loadConfig to readConfig in src\/config\.ts/);
    assert.match(text, /- src\/config\.ts \(modified\)/);
    assert.match(text, /- src\/new\.ts \(created\)/);
    assert.match(text, /Q: Keep the old name as an alias\?\n {2}A: no/);
    assert.match(text, /## Open questions\n- Also rename the tests\?/);
    assert.match(text, /User rejected deleting src\/legacy\.ts/);
    assert.match(text, /Earlier the agent read several files/);
    assert.match(text, /src\/file1\.ts/, 'files read in the condensed turns are listed');
    assert.equal(out[0].role, 'system');
    assert.deepEqual(out[out.length - 1], msgs[msgs.length - 1], 'the latest turn is kept');
    assert.ok(f.requestTokens(out) <= f.budgetFor('gpt-4o').budget);
    // No two user messages in a row (strict chat templates).
    for (let i = 1; i < out.length; i++) assert.ok(!(out[i].role === 'user' && out[i - 1].role === 'user'));

    // The loop calls again with its full history plus a new turn: the summary is reused, not re-made.
    const more = [...msgs, ...turn(81, 300)];
    const out2 = await f.fit(more, 'gpt-4o');
    assert.equal(s.calls.length, 1);
    assert.ok(f.requestTokens(out2) <= f.budgetFor('gpt-4o').budget);
  });

  it('keeps the facts even when the summary model fails', async () => {
    const f = new ContextFitter({
      settings: () => settings,
      summarizer: { summarize: async () => { throw new Error('429 rate limited'); } },
      facts,
    });
    const out = await f.fit(convo(80, 300), "gpt-4o");
    const text = out.map((m) => String(m.content)).join('\n');
    assert.match(text, /summary model failed: 429 rate limited/);
    assert.match(text, /- src\/config\.ts \(modified\)/);
  });

  it('cuts a single tool result that alone would overflow, with a note', async () => {
    const f = new ContextFitter({ settings: () => settings, summarizer: new FakeSummarizer() });
    const msgs = convo(1, 200_000);
    const out = await f.fit(msgs, 'gpt-4o');
    const tool = String(out.find((m) => m.role === 'tool')!.content);
    assert.match(tool, /^\[cut to fit the model's context window: about \d+ of 200000 chars kept\]/);
    assert.ok(f.requestTokens(out) <= f.budgetFor('gpt-4o').budget);
  });

  it('counts the tool schemas and the answer reserve against the window', async () => {
    const f = new ContextFitter({ settings: () => settings, summarizer: new FakeSummarizer() });
    const tools = [{ type: 'function', function: { name: 'x', description: 'y'.repeat(8000), parameters: {} } }];
    const withTools = f.budgetFor('gpt-4o', { tools }).budget;
    assert.ok(withTools < f.budgetFor('gpt-4o').budget - 1000);
    // The reserve counts in full up to a quarter of the window (20,000 here: 3,000 is under 5,000)…
    const wide = new ContextFitter({ settings: () => ({ contextWindow: 20_000, maxTokens: 1000 }) });
    assert.ok(wide.budgetFor('gpt-4o', { maxTokens: 3000 }).budget < wide.budgetFor('gpt-4o').budget - 1900);
    // …and no further: on 6,000 a reserve of 3,000 is held at 1,500 (what the loop sends as max_tokens).
    assert.equal(f.budgetFor('gpt-4o').budget - f.budgetFor('gpt-4o', { maxTokens: 3000 }).budget, 500);
  });

  it('refuses (throws) rather than send a request that cannot fit', async () => {
    const f = new ContextFitter({ settings: () => ({ contextWindow: 1500, maxTokens: 1000 }) });
    const msgs: ChatMessage[] = [{ role: 'system', content: 'rule '.repeat(2000) }, { role: 'user', content: 'hi' }];
    await assert.rejects(f.fit(msgs, 'gpt-4o'), ContextOverflowError);
    const f2 = new ContextFitter({ settings: () => ({ contextWindow: 1000, maxTokens: 1000 }) });
    const bulky = [{ type: 'function', function: { name: 'x', description: 'word '.repeat(900), parameters: {} } }];
    await assert.rejects(f2.fit([{ role: 'user', content: 'hi' }], 'gpt-4o', { tools: bulky }), /leave no room/);
  });

  it('never exceeds the window over many random conversations', async () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let k = 0; k < 25; k++) {
      const window = 3000 + Math.floor(rnd() * 20000);
      const f = new ContextFitter({ settings: () => ({ contextWindow: window, maxTokens: 500 }), summarizer: new FakeSummarizer(), facts });
      const msgs: ChatMessage[] = [{ role: 'system', content: 'sys '.repeat(50) }];
      const n = 1 + Math.floor(rnd() * 25);
      for (let i = 0; i < n; i++) msgs.push(...turn(i, Math.floor(rnd() * 30000)));
      const out = await f.fit(msgs, 'gpt-4o');
      assert.ok(f.requestTokens(out) <= f.budgetFor('gpt-4o').budget, `case ${k}: window ${window}`);
      assert.ok(f.budgetFor('gpt-4o').budget + 500 <= window);
    }
  });
});
