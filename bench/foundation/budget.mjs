// One line per figure, the way every foundation bench prints it: name, value, budget, verdict.
export function line(name, value, unit, budget, digits = 1) {
  const v = `${value.toFixed(digits)} ${unit}`;
  if (budget === undefined) return `  ${name.padEnd(34)} ${v.padStart(12)}`;
  const verdict = value <= budget ? 'within budget' : `OVER budget by ${(value - budget).toFixed(digits)} ${unit}`;
  return `  ${name.padEnd(34)} ${v.padStart(12)}   budget ≤ ${budget} ${unit}   ${verdict}`;
}
