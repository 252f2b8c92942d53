/**
 * The progress line on stderr: a bar, done/total, passes so far, the elapsed time and an estimate
 * of what is left (the wall time per run finished in this session — jobs running at once make it
 * shorter — times the runs left), and the run that just ended. One line per finished run, so a log or a
 * terminal that does not redraw still shows it whole.
 */
import { seconds } from '../../../core/eval/evalMarkdown';

export class EvalProgress {
  private done = 0;
  private passed = 0;
  private finishedHere = 0;
  private readonly started = Date.now();

  constructor(
    private readonly total: number,
    /** Results found from an earlier, interrupted run: counted as done, not in the estimate. */
    resumed: { count: number; passed: number },
    private readonly write: (s: string) => void,
    private readonly now: () => number = Date.now,
  ) {
    this.done = resumed.count;
    this.passed = resumed.passed;
    if (resumed.count) write(`tandem eval: ${resumed.count} of ${total} already done (results kept from the earlier run)\n`);
  }

  line(what: string): string {
    const width = 20;
    const filled = this.total ? Math.round((this.done / this.total) * width) : width;
    const elapsed = this.now() - this.started;
    const left = this.total - this.done;
    const eta = this.finishedHere && left > 0 ? ` · ETA ${seconds((elapsed / this.finishedHere) * left)}` : '';
    return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${this.done}/${this.total} · ${this.passed} passed · ${seconds(elapsed)}${eta} · ${what}\n`;
  }

  started1(what: string): void {
    this.write(this.line(`started ${what}`));
  }

  finished(what: string, passed: boolean): void {
    this.done++;
    this.finishedHere++;
    if (passed) this.passed++;
    this.write(this.line(what));
  }
}
