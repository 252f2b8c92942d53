/**
 * Reads JSON as it streams in and says when a value at a path of interest is complete — each step of
 * a plan while the model is still writing the next one. It only follows the structure (objects,
 * arrays, strings with their escapes, the ends of numbers and literals), one character at a time and
 * each character once, so a long answer in many small chunks costs what its length costs; a chunk
 * may end anywhere, mid-string or mid-escape. The text of a completed value is handed out as written:
 * the caller parses it (JSON.parse), which is also what catches a malformed number or literal.
 *
 * Why not re-parse the whole text with a partial-JSON parser on every chunk: that is quadratic in the
 * answer's length, and a plan streamed in five-character chunks would be parsed thousands of times.
 */

/** Keys of objects and indices of arrays, from the root down. */
export type JsonPath = readonly (string | number)[];

export interface CompletedValue {
  path: JsonPath;
  /** The value's JSON text exactly as written. */
  text: string;
}

interface Frame {
  kind: 'object' | 'array';
  /** The key (object) or index (array) of the value being read in this container. */
  key: string | number;
  /** object: 'key' (a key or `}` next), 'colon', 'value', 'comma' (`,` or `}` next); array: 'value' (or `]`), 'comma'. */
  expect: 'key' | 'colon' | 'value' | 'comma';
  /** Whether a value came in this container yet (an empty container may close where a value is expected). */
  any: boolean;
}

/** The scanner's place inside a token that may continue in the next chunk. */
type Inside = 'none' | 'string' | 'escape' | 'scalar';

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);

export class JsonStreamReader {
  private text = '';
  /** Characters of `text` already read. */
  private at = 0;
  private readonly stack: Frame[] = [];
  private inside: Inside = 'none';
  /** Where the string or scalar being read started (in `text`), and whether it is a key. */
  private tokenStart = 0;
  private tokenIsKey = false;
  /** Starts of the open values whose path is wanted, by depth. */
  private readonly wantedStart = new Map<number, number>();
  private rootDone = false;
  private problem: string | undefined;

  /** `want(path)`: whether the caller wants the value at `path` when it completes. */
  constructor(private readonly want: (path: JsonPath) => boolean) {}

  /** Why the text is not JSON (the reader stops at the first problem); undefined while it may still be. */
  get error(): string | undefined {
    return this.problem;
  }

  /** Whether the root value is complete. */
  get done(): boolean {
    return this.rootDone;
  }

  /** Reads one more piece of the text; returns the wanted values it completed, in order. */
  push(chunk: string): CompletedValue[] {
    const out: CompletedValue[] = [];
    if (this.problem || !chunk) return out;
    this.text += chunk;
    const t = this.text;
    for (; this.at < t.length && !this.problem; this.at++) {
      const ch = t[this.at];
      switch (this.inside) {
        case 'escape':
          // Whatever follows the backslash (`"`, `\`, `u` …) cannot end the string; \uXXXX digits are plain characters.
          this.inside = 'string';
          continue;
        case 'string':
          if (ch === '\\') this.inside = 'escape';
          else if (ch === '"') {
            this.inside = 'none';
            this.endString(this.at + 1, out);
          }
          continue;
        case 'scalar':
          if (WHITESPACE.has(ch) || ch === ',' || ch === '}' || ch === ']') {
            this.inside = 'none';
            this.completed(this.at, out);
            // The delimiter is read again as structure.
            this.at--;
          }
          continue;
        case 'none':
          this.structure(ch, out);
      }
    }
    return out;
  }

  private structure(ch: string, out: CompletedValue[]): void {
    if (WHITESPACE.has(ch)) return;
    const top = this.stack[this.stack.length - 1];
    if (this.rootDone) return this.fail(`unexpected '${ch}' after the end of the JSON value`);
    if (!top) return this.startValue(ch);
    if (top.kind === 'object') {
      switch (top.expect) {
        case 'key':
          if (ch === '}' && !top.any) return this.close(out);
          if (ch !== '"') return this.fail(`expected a key, found '${ch}'`);
          this.inside = 'string';
          this.tokenStart = this.at;
          this.tokenIsKey = true;
          return;
        case 'colon':
          if (ch !== ':') return this.fail(`expected ':', found '${ch}'`);
          top.expect = 'value';
          return;
        case 'value':
          return this.startValue(ch);
        case 'comma':
          if (ch === '}') return this.close(out);
          if (ch !== ',') return this.fail(`expected ',' or '}', found '${ch}'`);
          top.expect = 'key';
          top.any = true;
          return;
      }
    }
    if (top.expect === 'value') {
      if (ch === ']' && !top.any) return this.close(out);
      return this.startValue(ch);
    }
    if (ch === ']') return this.close(out);
    if (ch !== ',') return this.fail(`expected ',' or ']', found '${ch}'`);
    top.key = (top.key as number) + 1;
    top.expect = 'value';
    top.any = true;
  }

  private startValue(ch: string): void {
    const depth = this.stack.length;
    if (this.want(this.path())) this.wantedStart.set(depth, this.at);
    const top = this.stack[depth - 1];
    if (top) top.any = true;
    if (ch === '{') this.stack.push({ kind: 'object', key: '', expect: 'key', any: false });
    else if (ch === '[') this.stack.push({ kind: 'array', key: 0, expect: 'value', any: false });
    else if (ch === '"') {
      this.inside = 'string';
      this.tokenStart = this.at;
      this.tokenIsKey = false;
    } else if (ch === '-' || (ch >= '0' && ch <= '9') || ch === 't' || ch === 'f' || ch === 'n') {
      this.inside = 'scalar';
      this.tokenStart = this.at;
    } else this.fail(`unexpected '${ch}' where a value should start`);
  }

  private endString(end: number, out: CompletedValue[]): void {
    if (!this.tokenIsKey) return this.completed(end, out);
    const top = this.stack[this.stack.length - 1]!;
    try {
      top.key = JSON.parse(this.text.slice(this.tokenStart, end)) as string;
    } catch {
      return this.fail('a key is not a valid JSON string');
    }
    top.expect = 'colon';
    top.any = true;
  }

  private close(out: CompletedValue[]): void {
    this.stack.pop();
    this.completed(this.at + 1, out);
  }

  /** The value at the current depth ended just before `end`: hand it out if wanted, and move the parent on. */
  private completed(end: number, out: CompletedValue[]): void {
    const depth = this.stack.length;
    const start = this.wantedStart.get(depth);
    if (start !== undefined) {
      this.wantedStart.delete(depth);
      out.push({ path: this.path(), text: this.text.slice(start, end) });
    }
    const top = this.stack[depth - 1];
    if (top) top.expect = 'comma';
    else this.rootDone = true;
  }

  private path(): (string | number)[] {
    return this.stack.map((f) => f.key);
  }

  private fail(why: string): void {
    this.problem = `${why} (at character ${this.at + 1})`;
  }
}
