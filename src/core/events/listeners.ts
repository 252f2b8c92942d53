import type { Unsubscribe } from '../../protocol/chatSession';

/** A minimal typed event without `vscode` (so host logic stays unit-testable in plain Node). */
export class Listeners<T> {
  private readonly set = new Set<(value: T) => void>();

  add(listener: (value: T) => void): Unsubscribe {
    this.set.add(listener);
    return { dispose: () => { this.set.delete(listener); } };
  }

  fire(value: T): void {
    for (const l of [...this.set]) l(value);
  }

  clear(): void { this.set.clear(); }
}
