/**
 * Per-model reliability counts for structured answers (plans and verdicts) over a task: answers,
 * parse failures, validation failures and mean latency. Fed by every checked answer; the plan card
 * shows the tally so a user can see which model keeps needing repairs (and which fallback helped).
 */
import type { ModelReliability } from '../../protocol';

export interface CheckedAnswer {
  model?: string;
  failure?: 'parse' | 'validation' | 'request';
  latency_ms?: number;
}

export class ReliabilityTally {
  private readonly byModel = new Map<string, ModelReliability & { latencyTotal: number; timed: number }>();

  add(answers: readonly CheckedAnswer[]): void {
    for (const a of answers) {
      if (!a.model || a.failure === 'request') continue;
      const t = this.byModel.get(a.model) ?? { answers: 0, parse_failures: 0, validation_failures: 0, latencyTotal: 0, timed: 0 };
      t.answers++;
      if (a.failure === 'parse') t.parse_failures++;
      if (a.failure === 'validation') t.validation_failures++;
      if (a.latency_ms !== undefined) {
        t.latencyTotal += a.latency_ms;
        t.timed++;
      }
      this.byModel.set(a.model, t);
    }
  }

  /** A resumed task goes on counting from what its last plan card showed. */
  seed(from: Readonly<Record<string, ModelReliability>>): void {
    for (const [m, r] of Object.entries(from)) {
      this.byModel.set(m, { ...r, latencyTotal: (r.mean_latency_ms ?? 0) * (r.mean_latency_ms !== undefined ? r.answers : 0), timed: r.mean_latency_ms !== undefined ? r.answers : 0 });
    }
  }

  snapshot(): Record<string, ModelReliability> {
    return Object.fromEntries([...this.byModel].map(([m, t]) => [m, {
      answers: t.answers, parse_failures: t.parse_failures, validation_failures: t.validation_failures,
      ...(t.timed ? { mean_latency_ms: Math.round(t.latencyTotal / t.timed) } : {}),
    }]));
  }
}
