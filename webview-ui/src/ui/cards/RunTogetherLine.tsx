import type { PlanCard } from '../../../../src/protocol';

/** "Steps 1 and 2 can run side by side" on the plan card, and why they will not here (outside git). */
export function RunTogetherLine({ card }: { card: PlanCard }) {
  if (!card.run_together?.length) return null;
  const steps = card.run_together.map((g) => `${g.slice(0, -1).join(', ')} and ${g[g.length - 1]}`).join('; ');
  return (
    <p class="muted" data-run-together>
      ⇉ Steps {steps} {card.one_at_a_time ? `could run side by side; here they run one at a time: ${card.one_at_a_time}.` : 'can run side by side.'}
    </p>
  );
}
