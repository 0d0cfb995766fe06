/**
 * The request target as the access log shows it: a query value that is a key (a client's, or
 * the upstream's) is written `***`. Clients that put their key in `?api_key=…` are not rare,
 * and an access log is read, shipped and kept by more people than the keys file.
 */
import { REDACTED } from '../util/text.js';

/** `target` with every query value for which `isKey` holds (as sent or percent-decoded) replaced by `***`. */
export function maskedTarget(target: string, isKey: (value: string) => boolean): string {
  const q = target.indexOf('?');
  if (q === -1) return target;
  const pairs = target
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq === -1) return pair;
      const raw = pair.slice(eq + 1);
      let decoded = raw;
      try {
        decoded = decodeURIComponent(raw.replace(/\+/g, ' '));
      } catch {
        // malformed percent-encoding: judged as sent
      }
      return isKey(raw) || isKey(decoded) ? `${pair.slice(0, eq)}=${REDACTED}` : pair;
    });
  return `${target.slice(0, q)}?${pairs.join('&')}`;
}
