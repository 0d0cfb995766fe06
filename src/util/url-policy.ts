/**
 * Which URLs the client may fetch and which hosts count as loopback (docs/design.md "Reliability
 * and security rules": the key travels over plain http only to loopback). Imported by the
 * transport, by config (a stored base URL is checked the same way) and by `serve` (its
 * warning for a non-loopback --host): small, and loads nothing.
 */
import { UsageError } from '../errors.js';

/** The one host name trusted as loopback; the transport connects it to loopback without asking DNS (http/attempt.ts loopbackLookup). */
export const LOOPBACK_NAME = 'localhost';

/**
 * A host as the URL parser writes it (`127.1` → `127.0.0.1`, `[0:0::1]` → `[::1]`), without the
 * root's trailing dot (`localhost.`), so one spelling is judged whatever was typed; undefined when it is no valid host.
 */
function canonicalHost(hostname: string): string | undefined {
  const bare = hostname.replace(/^\[|\]$/g, '');
  try {
    return new URL(`http://${bare.includes(':') ? `[${bare}]` : bare}/`).hostname.replace(/^\[|\]$|\.$/g, '');
  } catch {
    return undefined;
  }
}

/**
 * Literal 127.0.0.0/8, ::1 (also as ::ffff:127.x.y.z) and the exact name `localhost` (or `localhost.`): the only
 * hosts plain http is allowed to by default. Other names under `.localhost` are not loopback
 * here: they would go to DNS, which may answer anything.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = canonicalHost(hostname);
  if (host === undefined) return false;
  return host === LOOPBACK_NAME || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host) || /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(host);
}

/** Refuses anything but https, or http to loopback (unless allowInsecure), before any request. */
export function assertAllowedUrl(url: URL, allowInsecure = false): void {
  if (url.protocol === 'https:') return;
  if (url.protocol !== 'http:') {
    throw new UsageError(`Refusing to fetch ${url.protocol}// URLs: only http and https are supported.`);
  }
  if (!allowInsecure && !isLoopbackHost(url.hostname)) {
    throw new UsageError(`Refusing plain http:// to ${url.host}: the API key and data would travel unencrypted.`, {
      hint: 'Use an https:// base URL, or pass --allow-insecure if you really mean it.',
    });
  }
}

/**
 * A base URL as given by --base-url, EXERCISES_BASE_URL or `config set base-url`: a full
 * http(s) URL without credentials; a query or fragment is dropped (a path prefix is kept).
 */
export function parseBaseUrl(text: string): URL {
  let url: URL;
  const hint = 'Give a full URL such as https://api.wrkout.xyz (flag --base-url, env EXERCISES_BASE_URL or `exercises config set base-url`).';
  try {
    url = new URL(text.trim());
  } catch {
    throw new UsageError(`The base URL "${text}" is not a valid URL.`, { hint });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new UsageError(`The base URL "${text}" is not an http(s) URL.`, { hint });
  if (url.username || url.password) throw new UsageError('The base URL must not contain a user name or password.');
  url.search = '';
  url.hash = '';
  return url;
}
