/**
 * When the workspace's facts pass `tandem.facts.max`, consolidating them is offered — once per
 * task: a task that learns five facts past the maximum asks once, not five times, and a task the
 * user declined does not ask again; the next task does.
 */
export class ConsolidationOffer {
  private readonly offered = new Set<string>();

  /** Whether to offer now: past the maximum, and not offered in this task yet. */
  due(taskId: string, count: number, max: number): boolean {
    if (count <= max || this.offered.has(taskId)) return false;
    this.offered.add(taskId);
    return true;
  }
}
