/** Which URLs the client may fetch: https, or plain http only to loopback (the key must not travel in clear). */
import { UsageError } from '../errors.js';

/** The one host name trusted as loopback; the transport connects it without asking DNS. */
export const LOOPBACK_NAME = 'localhost';

/** A host as the URL parser writes it (`127.1` → `127.0.0.1`, `localhost.` → `localhost`), so one spelling is judged; undefined when invalid. */
function canonicalHost(hostname: string): string | undefined {
  const bare = hostname.replace(/^\[|\]$/g, '');
  try {
    return new URL(`http://${bare.includes(':') ? `[${bare}]` : bare}/`).hostname.replace(/^\[|\]$|\.$/g, '');
  } catch {
    return undefined;
  }
}

/** 127.0.0.0/8, ::1 (also IPv4-mapped) and exactly `localhost` (or `localhost.`): other `.localhost` names would go to DNS. */
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

/** A base URL as given by flag, variable or config: http(s), no credentials; query and fragment dropped. */
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

/** The user name and password in `url`, percent-decoded; not valid percent-encoding is a usage error naming `name` and `where`. */
export function urlCredentials(url: URL, name: string, where: string): { username: string; password: string } {
  try {
    return { username: decodeURIComponent(url.username), password: decodeURIComponent(url.password) };
  } catch {
    throw new UsageError(`${name}: the user name or password in ${where} is not valid percent-encoding.`, {
      hint: 'Write a % in them as %25 (and @ as %40, : as %3A, / as %2F).',
    });
  }
}
