/**
 * Which forward proxy a request goes through, from the environment, by curl's rules (as npm, gh
 * and aria2c read them): an https:// URL uses only `https_proxy`, never HTTP_PROXY; loopback is
 * never proxied; a `no_proxy` name covers the names under it (`example.com` covers
 * `api.example.com`, not `badexample.com`), `host:port` only that port, an IP only that address,
 * `*` alone every host; the lower-case variable wins.
 */
import { UsageError } from '../errors.js';
import { REDACTED } from '../util/text.js';
import { isLoopbackHost, urlCredentials } from '../util/url-policy.js';

/** The variables read, lower-case spelling first (it wins, as in curl). */
export const PROXY_VARIABLES = {
  https: ['https_proxy', 'HTTPS_PROXY'],
  http: ['http_proxy', 'HTTP_PROXY'],
  noProxy: ['no_proxy', 'NO_PROXY'],
} as const;

export type ProxyEnvironment = Readonly<Record<string, string | undefined>>;

/** The proxy chosen for a URL: where to connect, and how to name it to a person. */
export interface ProxyChoice {
  /** The proxy's URL with its credentials, for undici. */
  url: string;
  /** The same with any credentials masked, for --verbose and messages. */
  shown: string;
  /** The variable it came from. */
  variable: string;
  /** `Basic …` from the user name and password in its URL, sent to the proxy only. */
  authorization?: string;
}

interface NoProxyEntry {
  host: string;
  /** 0: any port. */
  port: number;
}

function firstSet(env: ProxyEnvironment, names: readonly string[]): { name: string; value: string } | undefined {
  const name = names.find((n) => env[n]?.trim());
  return name === undefined ? undefined : { name, value: env[name]!.trim() };
}

/** A proxy URL as curl reads one: no scheme means http://; only http and https proxies exist here. */
function parseProxyUrl(value: string, variable: string): URL {
  const text = value.includes('://') ? value : `http://${value}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`${variable}: not a proxy URL: ${maskedText(value)}.`, { hint: 'For example http://proxy.example.com:3128.' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`${variable}: ${url.protocol.slice(0, -1)} proxies are not supported, only http:// and https:// ones.`);
  }
  return url;
}

/** The proxy's Proxy-Authorization from the credentials in its URL (percent-decoded), if any. */
function authorizationOf(url: URL, variable: string): string | undefined {
  if (!url.username && !url.password) return undefined;
  const { username, password } = urlCredentials(url, variable, `the proxy URL ${maskProxyUrl(url)}`);
  return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
}

/** A proxy URL for a person: user name and password replaced. */
function maskProxyUrl(url: URL): string {
  if (!url.username && !url.password) return url.href;
  const shown = new URL(url.href);
  shown.username = REDACTED;
  shown.password = '';
  return shown.href;
}

/** A value that did not parse as a URL may still hold credentials: everything between `//` (or the start) and the last `@` is masked. */
function maskedText(value: string): string {
  const at = value.lastIndexOf('@');
  if (at < 0) return value;
  const slashes = value.indexOf('//');
  const from = slashes >= 0 && slashes < at ? slashes + 2 : 0;
  return `${value.slice(0, from)}${REDACTED}${value.slice(at)}`;
}

/** Brackets off an IPv6 literal, lower case, no trailing dot: the form hosts are compared in. */
function normalHost(host: string): string {
  return host
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase();
}

/** The entries of a no_proxy list; a `*` among others is no entry (curl: `*` means every host only alone). */
function parseNoProxy(value: string): NoProxyEntry[] {
  return value
    .split(/[\s,]+/)
    .filter((entry) => entry !== '' && entry !== '*')
    .map((entry) => {
      // host:port, [v6]:port; a bare IPv6 address has more than one colon and no port.
      const withPort = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(entry);
      const host = withPort ? withPort[1]! : entry;
      return { host: normalHost(host.replace(/^\*?\./, '')), port: withPort ? Number(withPort[2]) : 0 };
    });
}

/** True when `no_proxy` says `url` goes direct. */
function bypasses(noProxy: string, url: URL): boolean {
  if (noProxy === '*') return true;
  const host = normalHost(url.hostname);
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  const ipLiteral = host.includes(':') || /^\d+(\.\d+){3}$/.test(host);
  return parseNoProxy(noProxy).some((entry) => {
    if (entry.port !== 0 && entry.port !== port) return false;
    if (host === entry.host) return true;
    // An address matches only itself; a name also every name under it.
    return !ipLiteral && host.endsWith(`.${entry.host}`);
  });
}

/**
 * The proxy for requests to `url` under `env`, or undefined to go direct (always for loopback,
 * as Go and gh do). A malformed proxy variable is a UsageError (exit 2), raised when a request would use it.
 */
export function proxyFor(env: ProxyEnvironment, url: URL): ProxyChoice | undefined {
  if (isLoopbackHost(url.hostname)) return undefined;
  const names = url.protocol === 'https:' ? PROXY_VARIABLES.https : PROXY_VARIABLES.http;
  const set = firstSet(env, names);
  if (!set) return undefined;
  const noProxy = firstSet(env, PROXY_VARIABLES.noProxy);
  if (noProxy && bypasses(noProxy.value, url)) return undefined;
  const proxy = parseProxyUrl(set.value, set.name);
  const authorization = authorizationOf(proxy, set.name);
  return { url: proxy.href, shown: maskProxyUrl(proxy), variable: set.name, ...(authorization && { authorization }) };
}
