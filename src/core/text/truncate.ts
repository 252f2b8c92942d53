/**
 * Head+tail capping. The start of an output says what ran, the end says how it ended (errors, exit
 * summaries), so when something must be cut we keep both ends and say how much was left out.
 */

/** Caps `text` to about `maxChars`, keeping the first and last halves and noting what was cut. */
export function capHeadTail(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const keep = Math.max(0, maxChars);
  const head = Math.ceil(keep / 2);
  const tail = keep - head;
  const omitted = text.length - head - tail;
  return `${text.slice(0, head)}\n[… ${omitted} characters left out …]\n${tail > 0 ? text.slice(text.length - tail) : ''}`;
}

/** Caps by whole lines: the first `headLines` and last `tailLines`, with a note of how many lines were cut. */
export function capLinesHeadTail(text: string, headLines: number, tailLines: number): string {
  const lines = text.split('\n');
  if (lines.length <= headLines + tailLines) return text;
  const omitted = lines.length - headLines - tailLines;
  return [...lines.slice(0, headLines), `[… ${omitted} lines left out …]`, ...lines.slice(lines.length - tailLines)].join('\n');
}

/** Cuts one line to `maxChars`, saying how long it really was. */
export function capLine(line: string, maxChars: number): { text: string; cut: boolean } {
  if (line.length <= maxChars) return { text: line, cut: false };
  return { text: `${line.slice(0, maxChars)}… [line cut: ${line.length} characters]`, cut: true };
}

/**
 * Keeps the head and the tail of a stream without holding all of it: the first `maxChars/2`
 * characters, and a rolling window of the last `maxChars/2`. Used for command output, which can be
 * gigabytes (`yes`, a runaway log) and must not grow memory without bound.
 */
export class HeadTailBuffer {
  private head = '';
  private tail = '';
  private dropped = 0;
  private readonly headMax: number;
  private readonly tailMax: number;

  constructor(maxChars: number) {
    this.headMax = Math.ceil(maxChars / 2);
    this.tailMax = Math.max(0, maxChars - this.headMax);
  }

  push(chunk: string): void {
    if (this.head.length < this.headMax) {
      const room = this.headMax - this.head.length;
      this.head += chunk.slice(0, room);
      chunk = chunk.slice(room);
      if (!chunk) return;
    }
    this.tail += chunk;
    // Trim lazily (at 2x) so a stream of small chunks costs amortised O(1) per character.
    if (this.tail.length > this.tailMax * 2 || this.tailMax === 0) {
      const cut = this.tail.length - this.tailMax;
      this.dropped += cut;
      this.tail = this.tail.slice(cut);
    }
  }

  /** Characters that were not kept. */
  get omitted(): number {
    return this.dropped + Math.max(0, this.tail.length - this.tailMax);
  }

  toString(): string {
    const extra = Math.max(0, this.tail.length - this.tailMax);
    const tail = this.tail.slice(extra);
    const omitted = this.dropped + extra;
    if (omitted === 0) return this.head + tail;
    return `${this.head}\n[… ${omitted} characters of output left out …]\n${tail}`;
  }
}
