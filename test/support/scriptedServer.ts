/**
 * A scripted OpenAI-compatible server on node:http (127.0.0.1, random port). Each
 * `/v1/chat/completions` request consumes the next scripted step, so the SDK's own fetch, SSE
 * parsing, retry and timeout code runs unchanged against it. Every request is logged with its
 * parsed body so tests can assert what the agent sent (tools offered, messages).
 *
 * Control endpoints for other processes: `GET /__requests` (the log), `POST /__script`
 * (`{ steps, replace? }`), `POST /__reset`.
 */
import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ScriptedUsage { prompt_tokens: number; completion_tokens: number }

interface StepCommon {
  /** Serve this step for this many requests (default 1); `repeat: true` never consumes it. */
  times?: number;
  repeat?: boolean;
  /** Usage in the final chunk; `false` sends none. Default: a small made-up count. */
  usage?: ScriptedUsage | false;
  /** Delay between chunks, ms. */
  chunkDelayMs?: number;
  /** Model id reported back (default: the requested one). */
  model?: string;
  /** Silence after the headers, before the first chunk (prompt evaluation on a slow server), ms. */
  firstChunkDelayMs?: number;
}

export interface ScriptedToolCall { id?: string; name: string; arguments: string | Record<string, unknown> }

export type ScriptStep =
  | (StepCommon & { type: 'text'; text: string; chunkSize?: number; finishReason?: string })
  | (StepCommon & { type: 'tool_calls'; calls: ScriptedToolCall[]; text?: string; argChunkSize?: number; finishReason?: string })
  | (StepCommon & { type: 'json'; value: unknown; chunkSize?: number })
  | (StepCommon & { type: 'fault'; fault: 'rate_limit'; retryAfterSeconds?: number; retryAfterMs?: number })
  | (StepCommon & { type: 'fault'; fault: 'server_error'; status?: number; message?: string })
  | (StepCommon & { type: 'fault'; fault: 'hang' })
  | (StepCommon & { type: 'fault'; fault: 'reset' })
  | (StepCommon & { type: 'fault'; fault: 'malformed_json' })
  | (StepCommon & { type: 'fault'; fault: 'malformed_sse'; text?: string })
  | (StepCommon & { type: 'fault'; fault: 'error_event'; message?: string; text?: string })
  /** Streams `text` and/or `calls`, then stops after `fraction` of the chunks: `destroy` resets the socket, `end` closes it cleanly (no finish_reason, no [DONE]). */
  | (StepCommon & { type: 'fault'; fault: 'cut'; text?: string; calls?: ScriptedToolCall[]; argChunkSize?: number; fraction?: number; mode?: 'destroy' | 'end' })
  /** A recorded stream, sent verbatim as the SSE body (comments, provider fields and all), split into `pieces` writes. */
  | (StepCommon & { type: 'raw_sse'; body: string; pieces?: number })
  /** Empty deltas every `everyMs`, forever (content-free keep-alive chunks: no progress). */
  | (StepCommon & { type: 'fault'; fault: 'drip'; everyMs?: number; text?: string; content?: string })
  /** A redirect (307) to `location`, which may be another origin. */
  | (StepCommon & { type: 'fault'; fault: 'redirect'; location: string })
  /** Streams the first `afterChunks` chunks of `text`, then goes silent with the connection open. */
  | (StepCommon & { type: 'fault'; fault: 'stall'; text: string; afterChunks?: number; chunkSize?: number });

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** Parsed JSON body (undefined for GET or unparsable). */
  body: any;
  at: number;
}

/**
 * Requests answered from separate scripts by a key read from the request (e.g. which plan step the
 * Actor works on), so concurrent conversations each get their own answers in order; a request
 * whose key has no lane (or an empty one) takes the main script.
 */
export interface ScriptLanes {
  keyOf(body: any): string | undefined;
  steps: Record<string, ScriptStep[]>;
}

/** The plan step an Actor's request is about: the last step its conversation was asked to do ("Do step N of"). */
export function planStepOf(body: any): string | undefined {
  const asked = (body?.messages ?? []).filter((m: any) => m.role === 'user' && typeof m.content === 'string' && /Do step \d+ of/.test(m.content));
  return /Do step (\d+) of/.exec(asked[asked.length - 1]?.content ?? '')?.[1];
}

export interface ScriptedServerOptions {
  lanes?: ScriptLanes;
  /** Delay before each answer starts, ms (a slow server). */
  answerDelayMs?: number;
  /**
   * Answers computed from the request (a model that reads the conversation, e.g. one that makes each
   * eval task's reference change): asked first; `undefined` falls back to the lanes and the script.
   */
  respond?(body: any): ScriptStep | undefined;
  /** What to do when the script runs out: a 500 error (default) or a fixed text answer. */
  onExhausted?: 'error' | { text: string };
  models?: string[];
  /** More fields of a model's `/models` entry, by id (`context_length`, `meta.n_ctx`…). */
  modelInfo?: Record<string, Record<string, unknown>>;
  /** What `GET /props` answers, as llama-server does (none: 404, as other servers). */
  props?: Record<string, unknown>;
}

type Chunk = Record<string, unknown>;

function splitEvery(s: string, n: number): string[] {
  if (n <= 0 || s.length <= n) return [s];
  const out: string[] = [];
  for (let i = 0; i < s.length; i += n) out.push(s.slice(i, i + n));
  return out;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class ScriptedServer {
  readonly requests: ReceivedRequest[] = [];
  private steps: ScriptStep[] = [];
  private readonly sockets = new Set<Socket>();
  private readonly server: http.Server;
  private counter = 0;
  url = '';

  private constructor(steps: ScriptStep[], private readonly opts: ScriptedServerOptions) {
    this.steps = [...steps];
    this.server = http.createServer((req, res) => void this.handle(req, res));
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
  }

  static async start(steps: ScriptStep[] = [], opts: ScriptedServerOptions = {}, port = 0): Promise<ScriptedServer> {
    const s = new ScriptedServer(steps, opts);
    await new Promise<void>((resolve) => s.server.listen(port, '127.0.0.1', resolve));
    s.url = `http://127.0.0.1:${(s.server.address() as AddressInfo).port}/v1`;
    return s;
  }

  /** Bodies of the chat-completion requests received, in order (retries included). */
  chatRequests(): any[] {
    return this.requests.filter((r) => r.path.endsWith('/chat/completions')).map((r) => r.body);
  }

  /** Tool names offered in each chat request. */
  toolsOffered(): string[][] {
    return this.chatRequests().map((b) => (b?.tools ?? []).map((t: any) => t.function?.name));
  }

  push(...steps: ScriptStep[]): void {
    this.steps.push(...steps);
  }

  replace(steps: ScriptStep[]): void {
    this.steps = [...steps];
  }

  /** Answers by lane from now on (a suite whose server outlives one test; `undefined`: the main script only). */
  useLanes(lanes: ScriptLanes | undefined): void {
    this.opts.lanes = lanes;
  }

  get remainingSteps(): number {
    return this.steps.length;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private nextStep(): ScriptStep | undefined {
    const step = this.steps[0];
    if (!step) return undefined;
    if (step.repeat) return step;
    const times = step.times ?? 1;
    if (times <= 1) this.steps.shift();
    else this.steps[0] = { ...step, times: times - 1 } as ScriptStep;
    return step;
  }

  private async readBody(req: http.IncomingMessage): Promise<string> {
    const parts: Buffer[] = [];
    for await (const c of req) parts.push(c as Buffer);
    return Buffer.concat(parts).toString('utf8');
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const raw = await this.readBody(req);
    let body: any;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      body = undefined;
    }
    const path = (req.url ?? '/').split('?')[0]!;
    if (path.startsWith('/__')) return this.control(path, body, res);
    this.requests.push({ method: req.method ?? 'GET', path, headers: req.headers, body, at: Date.now() });

    if (path.endsWith('/models')) {
      const ids = this.opts.models ?? ['scripted-model', 'scripted-model-large'];
      return this.json(res, 200, { object: 'list', data: ids.map((id) => ({ id, object: 'model', created: 0, owned_by: 'scripted', ...this.opts.modelInfo?.[id] })) });
    }
    if (path === '/props' && this.opts.props) return this.json(res, 200, this.opts.props);
    if (!path.endsWith('/chat/completions') || req.method !== 'POST') {
      return this.json(res, 404, { error: { message: `no route ${req.method} ${path}`, type: 'not_found' } });
    }
    if (this.opts.answerDelayMs) await sleep(this.opts.answerDelayMs);
    const key = this.opts.lanes?.keyOf(body);
    const lane = key !== undefined ? this.opts.lanes?.steps[key] : undefined;
    let step = this.opts.respond?.(body ?? {}) ?? (lane?.length ? lane.shift() : this.nextStep());
    if (!step) {
      const ex = this.opts.onExhausted ?? 'error';
      if (ex === 'error') return this.json(res, 500, { error: { message: 'scripted server: the script has no more steps', type: 'script_exhausted' } });
      step = { type: 'text', text: ex.text };
    }
    await this.serve(step, body ?? {}, req, res);
  }

  private control(path: string, body: any, res: http.ServerResponse): void {
    if (path === '/__requests') return this.json(res, 200, this.requests);
    if (path === '/__script') {
      const steps = Array.isArray(body?.steps) ? body.steps : [];
      if (body?.replace) this.replace(steps);
      else this.push(...steps);
      return this.json(res, 200, { ok: true, remaining: this.steps.length });
    }
    if (path === '/__reset') {
      this.requests.length = 0;
      this.steps = [];
      return this.json(res, 200, { ok: true });
    }
    this.json(res, 404, { error: { message: 'unknown control path' } });
  }

  private json(res: http.ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
    const text = JSON.stringify(value);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
    res.end(text);
  }

  private baseChunk(model: string): Chunk {
    return { id: `chatcmpl-${++this.counter}`, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model };
  }

  /** The chunks of a complete answer, without the finish chunk. */
  private contentChunks(model: string, text: string | undefined, calls: ScriptedToolCall[] | undefined, chunkSize: number, argChunkSize: number): Chunk[] {
    const base = this.baseChunk(model);
    const out: Chunk[] = [{ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] }];
    if (text) for (const piece of splitEvery(text, chunkSize)) out.push({ ...base, choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] });
    (calls ?? []).forEach((call, index) => {
      const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
      const id = call.id ?? `call_${this.counter}_${index}`;
      out.push({ ...base, choices: [{ index: 0, delta: { tool_calls: [{ index, id, type: 'function', function: { name: call.name, arguments: '' } }] }, finish_reason: null }] });
      for (const piece of splitEvery(args, argChunkSize)) {
        out.push({ ...base, choices: [{ index: 0, delta: { tool_calls: [{ index, function: { arguments: piece } }] }, finish_reason: null }] });
      }
    });
    return out;
  }

  private finishChunks(model: string, finishReason: string, usage: ScriptedUsage | false | undefined): Chunk[] {
    const base = this.baseChunk(model);
    const out: Chunk[] = [{ ...base, choices: [{ index: 0, delta: {}, finish_reason: finishReason }] }];
    const u = usage === undefined ? { prompt_tokens: 100, completion_tokens: 20 } : usage;
    if (u) out.push({ ...base, choices: [], usage: { ...u, total_tokens: u.prompt_tokens + u.completion_tokens } });
    return out;
  }

  private startSse(res: http.ServerResponse, firstChunkDelayMs = 0): Promise<void> | void {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    res.flushHeaders();
    if (firstChunkDelayMs > 0) return sleep(firstChunkDelayMs).then(() => undefined);
  }

  private async writeChunks(res: http.ServerResponse, chunks: Chunk[], delayMs: number): Promise<void> {
    for (const c of chunks) {
      if (res.destroyed) return;
      res.write(`data: ${JSON.stringify(c)}\n\n`);
      if (delayMs > 0) await sleep(delayMs);
    }
  }

  /** A non-streamed completion, for requests with `stream: false`. */
  private whole(res: http.ServerResponse, model: string, text: string | null, calls: ScriptedToolCall[] | undefined, finishReason: string, usage: ScriptedUsage | false | undefined): void {
    const u = usage === undefined ? { prompt_tokens: 100, completion_tokens: 20 } : usage;
    const message: Record<string, unknown> = { role: 'assistant', content: text };
    if (calls?.length) {
      message.tool_calls = calls.map((c, i) => ({ id: c.id ?? `call_${this.counter}_${i}`, type: 'function', function: { name: c.name, arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments) } }));
    }
    this.json(res, 200, {
      id: `chatcmpl-${++this.counter}`, object: 'chat.completion', created: Math.floor(Date.now() / 1000), model,
      choices: [{ index: 0, message, finish_reason: finishReason, logprobs: null }],
      ...(u ? { usage: { ...u, total_tokens: u.prompt_tokens + u.completion_tokens } } : {}),
    });
  }

  private async serve(step: ScriptStep, body: any, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const model = step.model ?? body.model ?? 'scripted-model';
    const streaming = body.stream === true;
    const delay = step.chunkDelayMs ?? 0;

    if (step.type === 'text' || step.type === 'json' || step.type === 'tool_calls') {
      const text = step.type === 'json' ? JSON.stringify(step.value) : step.text;
      const calls = step.type === 'tool_calls' ? step.calls : undefined;
      const finish = (step.type !== 'json' ? step.finishReason : undefined) ?? (calls?.length ? 'tool_calls' : 'stop');
      if (!streaming) return this.whole(res, model, text ?? null, calls, finish, step.usage);
      const chunkSize = step.type === 'tool_calls' ? 8 : step.chunkSize ?? 8;
      const argChunkSize = step.type === 'tool_calls' ? step.argChunkSize ?? 7 : 7;
      await this.startSse(res, step.firstChunkDelayMs);
      await this.writeChunks(res, [...this.contentChunks(model, text, calls, chunkSize, argChunkSize), ...this.finishChunks(model, finish, step.usage)], delay);
      if (!res.destroyed) res.end('data: [DONE]\n\n');
      return;
    }

    if (step.type === 'raw_sse') {
      await this.startSse(res, step.firstChunkDelayMs);
      const n = Math.max(1, step.pieces ?? 1);
      const size = Math.ceil(step.body.length / n);
      for (let i = 0; i < step.body.length && !res.destroyed; i += size) {
        res.write(step.body.slice(i, i + size));
        if (delay > 0) await sleep(delay);
      }
      if (!res.destroyed) res.end();
      return;
    }

    switch (step.fault) {
      case 'drip': {
        await this.startSse(res);
        const first = this.contentChunks(model, step.text, undefined, 64, 7);
        await this.writeChunks(res, first, 0);
        const base = this.baseChunk(model);
        while (!res.destroyed && !res.writableEnded) {
          res.write(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: { content: step.content ?? '' }, finish_reason: null }] })}\n\n`);
          await sleep(step.everyMs ?? 20);
        }
        return;
      }
      case 'redirect':
        res.writeHead(307, { location: step.location, 'content-length': '0' });
        res.end();
        return;
      case 'rate_limit': {
        const headers: Record<string, string> = {};
        if (step.retryAfterMs !== undefined) headers['retry-after-ms'] = String(step.retryAfterMs);
        if (step.retryAfterSeconds !== undefined) headers['retry-after'] = String(step.retryAfterSeconds);
        return this.json(res, 429, { error: { message: 'Rate limit reached (scripted)', type: 'rate_limit_exceeded' } }, headers);
      }
      case 'server_error':
        return this.json(res, step.status ?? 500, { error: { message: step.message ?? 'The server had an error (scripted)', type: 'server_error' } });
      case 'hang':
        // Never answer; the socket is destroyed on close().
        return;
      case 'reset':
        req.socket.destroy();
        return;
      case 'malformed_json': {
        const text = '{"id":"chatcmpl-broken","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"hel';
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
        res.end(text);
        return;
      }
      case 'malformed_sse': {
        this.startSse(res);
        await this.writeChunks(res, this.contentChunks(model, step.text ?? 'Partial ', undefined, 8, 7), delay);
        res.end('data: {"id":"chatcmpl-x","choices":[{"index":0,"delta":{"content":"oops"\n\ndata: [DONE]\n\n');
        return;
      }
      case 'error_event': {
        this.startSse(res);
        await this.writeChunks(res, this.contentChunks(model, step.text ?? 'Partial ', undefined, 8, 7), delay);
        res.end(`data: ${JSON.stringify({ error: { message: step.message ?? 'The model is overloaded (scripted)', type: 'server_error' } })}\n\n`);
        return;
      }
      case 'cut': {
        const chunks = this.contentChunks(model, step.text, step.calls, 8, step.argChunkSize ?? 5);
        const n = Math.max(1, Math.min(chunks.length - 1, Math.floor(chunks.length * (step.fraction ?? 0.5))));
        this.startSse(res);
        await this.writeChunks(res, chunks.slice(0, n), delay);
        // Give the client a moment to read what was sent before the cut.
        await sleep(20);
        if ((step.mode ?? 'destroy') === 'destroy') res.socket?.destroy();
        else res.end();
        return;
      }
      case 'stall': {
        const chunks = this.contentChunks(model, step.text, undefined, step.chunkSize ?? 8, 7);
        this.startSse(res);
        await this.writeChunks(res, chunks.slice(0, Math.max(1, step.afterChunks ?? 2)), delay);
        // Stay silent with the connection open.
        return;
      }
    }
  }
}
