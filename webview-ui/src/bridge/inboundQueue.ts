/**
 * Collects messages from the host and hands them over once per animation frame, so a burst of
 * 1,000 `text_appended` costs one render, not 1,000. A timer backs up requestAnimationFrame,
 * which does not fire while the panel is hidden.
 */
export class InboundQueue {
  private items: unknown[] = [];
  private scheduled = false;

  constructor(private readonly flush: (items: unknown[]) => void) {}

  push(data: unknown): void {
    this.items.push(data);
    if (this.scheduled) return;
    this.scheduled = true;
    let done = false;
    const run = () => {
      if (done) return;
      done = true;
      this.scheduled = false;
      const batch = this.items;
      this.items = [];
      this.flush(batch);
    };
    requestAnimationFrame(run);
    setTimeout(run, 100);
  }
}
