/** Calendar months in UTC, `YYYY-MM`: the period the ledger counts requests in. */

/** The month `now` falls in, in UTC. */
export function currentMonth(now: number | Date = Date.now()): string {
  const date = typeof now === 'number' ? new Date(now) : now;
  return `${String(date.getUTCFullYear()).padStart(4, '0')}-${String(date.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** Months since year 0 (`2025-01` → 24300), for comparing and pruning; NaN for anything else. */
export function monthNumber(month: string): number {
  const match = /^(\d{4})-(\d{2})$/.exec(month);
  if (!match) return Number.NaN;
  const m = Number(match[2]);
  return m >= 1 && m <= 12 ? Number(match[1]) * 12 + (m - 1) : Number.NaN;
}
