/**
 * A download rate as curl's --limit-rate takes it: bytes per second, a number with an optional
 * k, m or g suffix in either case, 1024-based as curl's are (`100k` is 102,400 bytes a second;
 * `1.5m` is allowed). 0 means no limit, so a flag can lift a stored one for a run.
 */
import { UsageError } from '../errors.js';
import { LIMIT_RATE_MAX } from '../defaults.js';

const UNITS: Readonly<Record<string, number>> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/** Bytes per second, a whole number (0: no limit); `name` is where the value came from, for the message. */
export function parseByteRate(value: string, name: string): number {
  const match = /^(\d+(?:\.\d+)?|\.\d+)\s*([kmg]?)$/i.exec(value.trim());
  const bytes = match ? Math.round(Number(match[1]) * UNITS[match[2]!.toLowerCase()]!) : Number.NaN;
  // A fraction of a byte a second would never let a byte through: refused with the rest.
  if (!Number.isFinite(bytes) || bytes > LIMIT_RATE_MAX || (bytes === 0 && Number(match![1]) !== 0)) {
    throw new UsageError(
      `${name} must be bytes per second, a number with an optional k, m or g suffix (1024-based, as curl's), such as 500k or 2m, not "${value}".`,
      {
        hint: '0 lifts the limit.',
      },
    );
  }
  return bytes;
}
