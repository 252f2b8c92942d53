/** Small display helpers shared by the cards. */
// One formatter for all cards: `toLocaleString` builds a new Intl formatter on every call.
let timeFormat: Intl.DateTimeFormat | undefined;

export function formatTime(ts: number): string {
  const d = new Date(ts);
  if (!Number.isFinite(d.getTime())) return '';
  timeFormat ??= new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', month: 'short', day: 'numeric' });
  return timeFormat.format(d);
}

export function formatTokens(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(1)}M`;
  if (n >= 10_000) return `${Math.round(n / 1000)}k`;
  if (n >= 1000) return `${(n / 1000).toFixed(1)}k`;
  return String(n);
}

export function formatCost(usd: number | undefined): string {
  if (usd === undefined) return '';
  return usd < 0.01 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}

export function formatUsage(u: { tokens_in: number; tokens_out: number; cost_usd?: number }): string {
  const cost = formatCost(u.cost_usd);
  return `${formatTokens(u.tokens_in)} in · ${formatTokens(u.tokens_out)} out${cost ? ` · ${cost}` : ''}`;
}

/** An ISO timestamp for `<time dateTime>`; empty for a timestamp Date cannot represent. */
export function isoTime(ts: number): string {
  const d = new Date(ts);
  return Number.isFinite(d.getTime()) ? d.toISOString() : '';
}
