/**
 * One way to write a duration for every duration setting and flag (`timeout`, `cache-ttl`,
 * `--timeout`): a whole number with a unit, ms, s, m, h or d (`500ms`, `5s`, `90m`, `24h`,
 * `7d`), or a bare number in the setting's own unit (milliseconds for timeout, seconds for
 * cache-ttl, as they have always been stored).
 */
import { UsageError } from '../errors.js';

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export interface DurationRule {
  /** The unit of a bare number and of the result. */
  unit: 'ms' | 's';
  min: number;
  max: number;
}

/** `5s` → 5000 (unit ms) or 5 (unit s); a usage error naming `name` and the accepted forms otherwise. */
export function parseDuration(value: string, name: string, rule: DurationRule): number {
  const match = /^(\d+)\s*(ms|s|m|h|d)?$/i.exec(value.trim());
  const perUnit = UNIT_MS[rule.unit]!;
  const ms = match ? Number(match[1]) * UNIT_MS[(match[2] ?? rule.unit).toLowerCase()]! : NaN;
  const result = ms / perUnit;
  if (!Number.isSafeInteger(result) || result < rule.min || result > rule.max) {
    const bare = rule.unit === 'ms' ? 'milliseconds' : 'seconds';
    throw new UsageError(
      `${name} must be a duration such as 5s, 90m, 24h or a number of ${bare}, between ${formatDuration(rule.min, rule.unit)} and ${formatDuration(rule.max, rule.unit)}, not "${value}".`,
    );
  }
  return result;
}

/** 86400 (s) → `24h`, 5000 (ms) → `5s`, 1500 (ms) → `1500ms`: the largest unit that divides it. */
export function formatDuration(amount: number, unit: 'ms' | 's'): string {
  const ms = amount * UNIT_MS[unit]!;
  if (ms === 0) return `0${unit}`;
  if (ms % UNIT_MS.d! === 0 && ms > UNIT_MS.d!) return `${ms / UNIT_MS.d!}d`; // 7d, but 24h rather than 1d
  for (const u of ['h', 'm', 's', 'ms'] as const) {
    if (ms % UNIT_MS[u]! === 0) return `${ms / UNIT_MS[u]!}${u}`;
  }
  return `${amount}${unit}`;
}
