/**
 * A tiny llama-architecture GGUF whose answers are known in advance, for running the real
 * llama-server without downloading weights. Its vocabulary is LLaMA's real 32,000-token
 * SentencePiece vocabulary (from the npm package llama-tokenizer-js) plus the chat tokens of the
 * Qwen2.5 template (`<|im_start|>`, `<|im_end|>`, `<tool_call>`, `<tool_response>`, …), so prompts
 * tokenize to a realistic length and the template's tool-call format is parsed by the server.
 *
 * The weights are written by hand, not trained: one layer of width 64.
 * - Each token's embedding is a one-hot "state" dimension (a few tokens have their own; every other
 *   token shares one) plus an always-on bias dimension.
 * - Attention looks only for `<tool_response>`: its key is large on one dimension that RoPE leaves
 *   unrotated (freq_base 1e30, last dimension pair), every query is constant there, so softmax puts
 *   all weight on `<tool_response>` positions when there are any (and on nothing that carries a
 *   value otherwise). Its value lands on a "marker" dimension: "a tool result is in the context".
 * - The feed-forward weights are zero; the output matrix maps (state, marker, bias) to logits.
 * So the next token depends on the last token and on whether a tool result was seen: after the
 * assistant header's newline the model opens `<tool_call>` and a newline (the template's call prefix,
 * on which the server's grammar wakes and forces a well-formed call), after a tool result it
 * answers "OK" and ends. Where a grammar constrains the
 * output (tool calls, `response_format: json_schema`), the bias row ranks the allowed tokens so the
 * choice is fixed: end of turn, `"`, `}`, `]`, … first, and `{` / `[` are followed by `}` / `]` where
 * allowed, so JSON closes as soon as the grammar allows (no optional key, no extra item).
 */
import { writeGguf, type GgufTensor, type GgufValue } from './ggufWriter';

/** What the model does after the assistant header. */
export type TinyBehaviour =
  /** A tool call first; "OK" once a tool result is in the context. */
  | 'tool-then-answer'
  /** "OK" at once, never a tool call. */
  | 'answer'
  /** "OKOKOK…" until the server's token limit: a stream that is still running when the test wants it. */
  | 'endless';

const EMBD = 64;
const BASE_VOCAB = 8000;
const FF = 64;
/** Residual dimensions. */
const DIM = { other: 0, bias: 1, marker: 2 } as const;
/** The head dimension for the query/key match: pair 31, which RoPE (base 1e30) does not rotate. */
const MATCH = 62;
const ROPE_FREQ_BASE = 1e30;

/** Token types (llama_token_type). */
const TYPE = { normal: 1, unknown: 2, control: 3, userDefined: 4, byte: 6 } as const;

const ADDED_TOKENS: readonly [string, number][] = [
  ['<|im_start|>', TYPE.control],
  ['<|im_end|>', TYPE.control],
  ['<tool_call>', TYPE.userDefined],
  ['</tool_call>', TYPE.userDefined],
  ['<tool_response>', TYPE.userDefined],
  ['</tool_response>', TYPE.userDefined],
];

/**
 * How much the bias row favours each token where a grammar leaves a choice (higher first). Ten
 * units apart so even sampling at temperature 1 picks the first allowed one.
 */
const PREFERENCE: readonly [string, number][] = [
  ['<|im_end|>', 0],
  // Close a string as soon as its minimum length allows; a string's first character (and a tool
  // name's: `list_files` is the tool called) is "l", which is allowed nowhere else in JSON.
  ['"', -10],
  ['l', -11],
  // One call per message: close it rather than add `, {…}` (the template allows several). Below
  // `"` and "l", since inside a string its text is allowed too.
  ['</tool_call>', -12],
  // After a value: close the object or list rather than add an optional key or another item.
  ['}', -20],
  [']', -25],
  ['{', -40],
  ['[', -50],
  [':', -60],
  [',', -70],
  ['1', -90],
];
const DEFAULT_PREFERENCE = -200;
/** Whitespace only where the grammar requires it. */
const LOW_PREFERENCE: readonly [string, number][] = [
  ['<0x0A>', -250],
  ['▁', -300],
];
const TRANSITION = 500;

export interface TinyModel {
  file: string;
  bytes: number;
  vocabSize: number;
}

export async function writeTinyModel(file: string, opts: { behaviour: TinyBehaviour; chatTemplate: string }): Promise<TinyModel> {
  const { default: tokenizer } = await import('llama-tokenizer-js');
  // LLaMA's merged pieces are numbered in merge order, the most common first; its single characters
  // come last. The first pieces plus every single character still tokenize English and code
  // compactly (the rest falls back to shorter pieces or bytes) in a quarter of the vocabulary, and
  // every grammar-constrained token costs a pass over the whole vocabulary.
  const kept = tokenizer.vocabById.map((t, i) => [t, i] as const).filter(([t, i]) => i < BASE_VOCAB || [...t].length === 1);
  const base = kept.map(([t]) => t);
  const originalId = kept.map(([, i]) => i);
  const tokens = [...base, ...ADDED_TOKENS.map(([t]) => t)];
  const V = tokens.length;
  const id = new Map(tokens.map((t, i) => [t, i] as const));
  const idOf = (t: string): number => {
    const i = id.get(t);
    if (i === undefined) throw new Error(`token ${JSON.stringify(t)} is not in the vocabulary`);
    return i;
  };

  const types = new Int32Array(V);
  const scores = new Float32Array(V);
  for (let i = 0; i < base.length; i++) {
    const t = base[i];
    if (i === 0) types[i] = TYPE.unknown;
    else if (i === 1 || i === 2) types[i] = TYPE.control;
    else if (/^<0x[0-9A-F]{2}>$/.test(t)) types[i] = TYPE.byte;
    else {
      types[i] = TYPE.normal;
      // SentencePiece merges by score, higher first; LLaMA's pieces are numbered in merge order.
      scores[i] = -originalId[i];
    }
  }
  ADDED_TOKENS.forEach(([, type], k) => (types[base.length + k] = type));

  // Tokens with a state dimension of their own.
  const NL = idOf('<0x0A>');
  const O = idOf('O');
  const K = idOf('K');
  const TOOL_RESPONSE = idOf('<tool_response>');
  const TOOL_CALL = idOf('<tool_call>');
  const EOS = idOf('<|im_end|>');
  const OPEN_OBJECT = idOf('{');
  const OPEN_LIST = idOf('[');
  const stateDim = new Map<number, number>([[NL, 3], [O, 4], [K, 5], [TOOL_RESPONSE, 6], [OPEN_OBJECT, 7], [OPEN_LIST, 8], [TOOL_CALL, 9]]);

  const embd = new Float32Array(EMBD * V);
  for (let t = 0; t < V; t++) {
    embd[t * EMBD + (stateDim.get(t) ?? DIM.other)] = 1;
    embd[t * EMBD + DIM.bias] = 1;
  }

  // After the attention RMS norm an embedding (two ones in 64) reads sqrt(32) ≈ 5.657 on each.
  const normed = Math.sqrt(EMBD / 2);
  const wq = new Float32Array(EMBD * EMBD);
  const wk = new Float32Array(EMBD * EMBD);
  const wv = new Float32Array(EMBD * EMBD);
  const wo = new Float32Array(EMBD * EMBD);
  wq[MATCH * EMBD + DIM.bias] = 1; // every query: 5.657
  wk[MATCH * EMBD + stateDim.get(TOOL_RESPONSE)!] = 8; // <tool_response>'s key: 45.25; score 5.657·45.25/8 = 32
  wv[DIM.marker * EMBD + stateDim.get(TOOL_RESPONSE)!] = 8 / normed; // its value: 8 on the marker
  wo[DIM.marker * EMBD + DIM.marker] = 1;

  // Logits: output[j] · norm(h), h = state + bias (+ 8·marker after a tool result).
  const out = new Float32Array(EMBD * V);
  const set = (tok: number, dim: number, v: number) => (out[tok * EMBD + dim] = v);
  // Where the grammar forces a literal (a key, an enum value), the longest token that fits wins:
  // fewer tokens, each of which costs a grammar pass over the whole vocabulary.
  for (let t = 0; t < V; t++) set(t, DIM.bias, DEFAULT_PREFERENCE + Math.min(tokens[t].length, 16) * 0.5);
  for (const [t, p] of [...PREFERENCE, ...LOW_PREFERENCE]) set(idOf(t), DIM.bias, p);
  const after = (from: number, to: number) => set(to, stateDim.get(from)!, TRANSITION);
  // An object or list the grammar lets end at once ends at once (`{}`, `[]`): no optional keys.
  after(OPEN_OBJECT, idOf('}'));
  after(OPEN_LIST, idOf(']'));
  switch (opts.behaviour) {
    case 'tool-then-answer':
      after(NL, TOOL_CALL);
      // The server's grammar wakes on "<tool_call>\n" (the template's own call prefix).
      after(TOOL_CALL, NL);
      // "O" wins after the newline only with the marker on: 500 − 700 + 8·68.75 = 350 > 300 (the tool
      // call); with the marker alone it stays below the grammar's preferred tokens (−150).
      after(NL, O);
      set(O, DIM.bias, -700);
      set(O, DIM.marker, 68.75);
      after(O, K);
      after(K, EOS);
      break;
    case 'answer':
      after(NL, O);
      after(O, K);
      after(K, EOS);
      break;
    case 'endless':
      after(NL, O);
      after(O, K);
      after(K, O);
      set(EOS, DIM.bias, DEFAULT_PREFERENCE * 2);
      break;
  }

  const ones = new Float32Array(EMBD).fill(1);
  const tensors: GgufTensor[] = [
    { name: 'token_embd.weight', dims: [EMBD, V], data: embd },
    { name: 'output_norm.weight', dims: [EMBD], data: ones },
    { name: 'output.weight', dims: [EMBD, V], data: out },
    { name: 'blk.0.attn_norm.weight', dims: [EMBD], data: ones },
    { name: 'blk.0.attn_q.weight', dims: [EMBD, EMBD], data: wq },
    { name: 'blk.0.attn_k.weight', dims: [EMBD, EMBD], data: wk },
    { name: 'blk.0.attn_v.weight', dims: [EMBD, EMBD], data: wv },
    { name: 'blk.0.attn_output.weight', dims: [EMBD, EMBD], data: wo },
    { name: 'blk.0.ffn_norm.weight', dims: [EMBD], data: ones },
    { name: 'blk.0.ffn_gate.weight', dims: [EMBD, FF], data: new Float32Array(EMBD * FF) },
    { name: 'blk.0.ffn_down.weight', dims: [FF, EMBD], data: new Float32Array(EMBD * FF) },
    { name: 'blk.0.ffn_up.weight', dims: [EMBD, FF], data: new Float32Array(EMBD * FF) },
  ];
  const u32 = (value: number): GgufValue => ({ type: 'u32', value });
  const metadata: Record<string, GgufValue> = {
    'general.architecture': { type: 'string', value: 'llama' },
    'general.name': { type: 'string', value: `tandem-tiny-${opts.behaviour}` },
    'general.alignment': u32(32),
    'llama.context_length': u32(32768),
    'llama.embedding_length': u32(EMBD),
    'llama.block_count': u32(1),
    'llama.feed_forward_length': u32(FF),
    'llama.attention.head_count': u32(1),
    'llama.attention.head_count_kv': u32(1),
    'llama.attention.layer_norm_rms_epsilon': { type: 'f32', value: 1e-5 },
    'llama.rope.dimension_count': u32(EMBD),
    'llama.rope.freq_base': { type: 'f32', value: ROPE_FREQ_BASE },
    'llama.vocab_size': u32(V),
    'tokenizer.ggml.model': { type: 'string', value: 'llama' },
    'tokenizer.ggml.tokens': { type: 'string[]', value: tokens },
    'tokenizer.ggml.scores': { type: 'f32[]', value: scores },
    'tokenizer.ggml.token_type': { type: 'i32[]', value: types },
    'tokenizer.ggml.bos_token_id': u32(1),
    'tokenizer.ggml.eos_token_id': u32(EOS),
    'tokenizer.ggml.unknown_token_id': u32(0),
    'tokenizer.ggml.add_bos_token': { type: 'bool', value: false },
    // Chat templates put words right after special tokens ("<|im_start|>assistant"): a space added in
    // front of each text piece would make the server's grammar reject its own generation prompt.
    'tokenizer.ggml.add_space_prefix': { type: 'bool', value: false },
    'tokenizer.chat_template': { type: 'string', value: opts.chatTemplate },
  };
  const bytes = writeGguf(file, metadata, tensors);
  return { file, bytes, vocabSize: V };
}
