/**
 * Keeps the head and the tail of a command's output within a character budget while it streams,
 * so a chatty build neither fills memory nor the model's window. What was dropped is said in the text.
 */
export class HeadTailBuffer {
  private head = '';
  private tail = '';
  private dropped = 0;
  private readonly headMax: number;
  private readonly tailMax: number;

  constructor(maxChars: number) {
    this.headMax = Math.floor(maxChars / 3);
    this.tailMax = maxChars - this.headMax;
  }

  push(chunk: string): void {
    if (this.head.length < this.headMax) {
      const take = Math.min(chunk.length, this.headMax - this.head.length);
      this.head += chunk.slice(0, take);
      chunk = chunk.slice(take);
    }
    if (!chunk) return;
    this.tail += chunk;
    if (this.tail.length > this.tailMax * 2) this.trimTail();
  }

  private trimTail(): void {
    const extra = this.tail.length - this.tailMax;
    if (extra > 0) {
      this.tail = this.tail.slice(extra);
      this.dropped += extra;
    }
  }

  toString(): string {
    this.trimTail();
    if (!this.dropped) return this.head + this.tail;
    return `${this.head}\n… [${this.dropped} characters of output omitted] …\n${this.tail}`;
  }
}

// CSI (colours, cursor moves), OSC (titles, shell-integration marks) and other two-byte escapes.
const ESCAPES = /\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b\[[0-?]*[ -/]*[@-~]|\x1b[@-Z\\-_]|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g;

/** Terminal output as plain text: escapes removed, CRLF → LF, and a carriage return (progress bars) keeps only what was drawn last. */
export function terminalToText(raw: string): string {
  const noEsc = raw.replace(/\r\n/g, '\n').replace(ESCAPES, (m) => (m === '\r' ? m : ''));
  if (!noEsc.includes('\r')) return noEsc;
  return noEsc.split('\n').map((line) => {
    const parts = line.split('\r');
    // "50%\r100%" shows "100%"; a trailing \r (before \n) keeps the previous text.
    for (let i = parts.length - 1; i >= 0; i--) if (parts[i]) return parts[i];
    return '';
  }).join('\n');
}
