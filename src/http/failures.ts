/**
 * What a failed request becomes: a failure of the connection (undici's errors, the socket's,
 * DNS's) a NetworkError naming the host and what went wrong (kind 'timeout' for timeouts,
 * 'network' for the rest); a failed HTTP status the project's error for it, quoting the server's
 * own message when it has our error shape. JSON requests and media downloads share both.
 */
import { AuthError, CliError, NetworkError, NotFoundError, RateLimitError, UsageError } from '../errors.js';
import { oneLine, shorten } from '../util/text.js';
import type { ProxyChoice } from './proxy-env.js';

/** The error code of `err`, or of the first of an AggregateError's (Node's address-family race), or of its cause. */
function errorCode(err: unknown): string {
  const e = err as { code?: unknown; errors?: unknown; cause?: unknown } | undefined;
  if (typeof e?.code === 'string' && e.code !== '') return e.code;
  if (Array.isArray(e?.errors) && e.errors.length > 0) return errorCode(e.errors[0]);
  const cause = e?.cause as { code?: unknown } | undefined;
  return typeof cause?.code === 'string' ? cause.code : '';
}

/**
 * Failures that provably came before the request was written: undici calls onRequestStart just
 * before it writes to a connected socket (client-h1.js writeH1), and DNS, connect, TLS and proxy
 * CONNECT failures all come before that. body.ts marks them, and the request ledger gives such an
 * attempt's count back (counting.ts); anything after onRequestStart stays counted.
 */
const neverWritten = new WeakSet<object>();

export function markNeverWritten<T>(err: T): T {
  if (typeof err === 'object' && err !== null) neverWritten.add(err);
  return err;
}

export function wasNeverWritten(err: unknown): boolean {
  return typeof err === 'object' && err !== null && neverWritten.has(err);
}

/** What to do about a failure that may be the forward proxy's. */
function proxyHint(proxy: ProxyChoice, hostname: string): string {
  return `The request went through the proxy ${proxy.shown} (${proxy.variable}): check that proxy, or list ${hostname} in NO_PROXY to go direct.`;
}

/** A failure of the forward proxy itself, named (credentials masked); `final` when no retry would go otherwise. */
export function proxyError(
  proxy: ProxyChoice,
  what: string,
  options: { kind?: 'timeout'; final?: boolean; status?: number; hint?: string; cause?: unknown } = {},
): NetworkError {
  const { kind, final, status, cause } = options;
  const hint = options.hint ?? `Check that proxy (${proxy.variable}), or list the host in NO_PROXY to go direct.`;
  const details = { proxy: proxy.shown, ...(status !== undefined && { status }), ...(final && { final }) };
  return new NetworkError(`The proxy ${proxy.shown} ${what}.`, { ...(kind && { kind }), hint, details, cause });
}

/**
 * A forward proxy's answer instead of a tunnel or the service's answer: 407 wants credentials,
 * 5xx could not reach the target (worth a retry), anything else refused it.
 */
export function proxyRefusal(proxy: ProxyChoice, status: number, target: string): NetworkError {
  if (status === 407) {
    const hint = proxy.authorization
      ? `It refused the user name and password in ${proxy.variable}: check them.`
      : `Give them in the proxy's URL: ${proxy.variable}=http://USER:PASSWORD@host:port (percent-encode any @ : / % in them).`;
    return proxyError(proxy, `wants credentials (407 Proxy Authentication Required) to reach ${target}`, { status, final: true, hint });
  }
  if (status >= 500) return proxyError(proxy, `could not reach ${target} (${status})`, { status });
  return proxyError(proxy, `refused to connect to ${target} (${status})`, {
    status,
    final: true,
    hint: `Ask whoever runs it to allow ${target} (squid's usual rules open tunnels to port 443 only), or list the host in NO_PROXY to go direct.`,
  });
}

/** Certificate failures a CA missing from this machine explains (a company's or a private one). */
const UNTRUSTED_CA = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
]);

/** Codes that mean what another does (the system's spelling of undici's), and those of a connection dropped mid-answer. */
const SAME_AS: Readonly<Record<string, string>> = { ETIMEDOUT: 'UND_ERR_CONNECT_TIMEOUT', EAI_AGAIN: 'ENOTFOUND' };
/** Failures to reach the first hop: through a proxy, the proxy's. */
const CONNECTING = new Set(['UND_ERR_CONNECT_TIMEOUT', 'ECONNREFUSED', 'ENOTFOUND']);
const DROPPED = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE', 'UND_ERR_ABORTED', 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH', 'ERR_STREAM_PREMATURE_CLOSE']);

/**
 * `redactText` keeps the key out of whatever text is quoted (a URL, a library's message).
 * `timeoutMs` is the idle timeout in force, for the message. `proxy`: the request went through
 * one: a failure to connect is the proxy's, and any other may be (the hint says so).
 */
export function networkError(err: unknown, url: URL, timeoutMs: number, redactText: (text: string) => string, proxy?: ProxyChoice): CliError {
  if (err instanceof CliError) return err;
  const code = errorCode(err);
  const known = SAME_AS[code] ?? code;
  const host = proxy && CONNECTING.has(known) ? `the proxy ${proxy.shown}` : url.host;
  const untrusted = UNTRUSTED_CA.has(code);
  const hint = untrusted
    ? `If ${url.hostname} uses a certificate of a private or company CA, trust that CA: NODE_EXTRA_CA_CERTS=<ca.pem> in the environment (its certificate, PEM).`
    : proxy
      ? proxyHint(proxy, url.hostname)
      : 'Check the base URL and your connection; --timeout and --retries adjust how patient the client is.';
  // An untrusted certificate stays untrusted: no retry.
  const details = { url: redactText(url.href), code: code || undefined, ...(untrusted && { final: true }) };
  const make = (message: string, kind: 'network' | 'timeout' = 'network'): NetworkError => new NetworkError(message, { kind, hint, details, cause: err });
  const timeouts: Record<string, string> = {
    UND_ERR_CONNECT_TIMEOUT: `Could not connect to ${host} within ${timeoutMs} ms.`,
    UND_ERR_HEADERS_TIMEOUT: `${host} did not answer within ${timeoutMs} ms.`,
    UND_ERR_BODY_TIMEOUT: `${host} stopped sending its answer for ${timeoutMs} ms.`,
  };
  if (timeouts[known]) return make(timeouts[known], 'timeout');
  if (known === 'ECONNREFUSED') return make(`Could not connect to ${host}: connection refused.`);
  if (known === 'ENOTFOUND') return make(proxy ? `Could not resolve the host name of ${host}.` : `Could not resolve the host name ${url.hostname}.`);
  if (DROPPED.has(known)) return make(`The connection to ${host} was dropped before the answer was complete.`);
  // Said in our words: Node's own sentence differs by version (24 adds advice on its own flags).
  if (untrusted) return make(`Secure connection to ${host} failed: its certificate is not signed by a CA this machine trusts (${code}).`);
  const text = err instanceof Error ? err.message : String(err);
  const tls = /certificate|CERT_|SSL|TLS/i.test(`${code} ${text}`);
  return make(`${tls ? 'Secure connection to' : 'Request to'} ${host} failed: ${redactText(text)}.`);
}

/**
 * The `message` (cleaned for a terminal, shortened) and `code` of our server's error shape
 * `{"error":{"code","message","parameter?"}}`; neither for any other body.
 */
function serverError(body: string | undefined, redact: (text: string) => string = (text) => text): { message?: string; code?: string } {
  let error: { message?: unknown; code?: unknown } | undefined;
  try {
    error = (JSON.parse(body ?? '') as { error?: typeof error })?.error;
  } catch {
    return {};
  }
  const { message, code } = error ?? {};
  // Redacted once decoded: JSON escapes (`\\u001b`, `\\u0033`) could spell the key in the raw body.
  const said = typeof message === 'string' && message.trim() !== '' ? shorten(oneLine(redact(message)).replace(/\s+/g, ' ').trim(), 300) : undefined;
  return { ...(said !== undefined ? { message: said } : {}), ...(typeof code === 'string' ? { code } : {}) };
}

/** The code of a team proxy's 502 when the service refused the proxy's own key (src/proxy/answers.ts sends it): no retry cures that. */
export const PROXY_KEY_REFUSED_CODE = 'upstream_key_refused';

/**
 * Maps a non-2xx status to the project's error. `what` names the request for the message
 * (e.g. "GET /exercise/query"); `body` is the response text, whose server message is quoted
 * when it has our JSON error shape.
 */
export function errorForStatus(status: number, what: string, body?: string, redact?: (text: string) => string): CliError {
  const { message: said, code } = serverError(body, redact);
  const because = said ? `: ${said}` : '.';
  const details = { status, request: what, ...(said ? { serverMessage: said } : {}) };
  switch (status) {
    case 400:
    case 422:
      return new UsageError(`The service refused ${what} as invalid (${status})${because}`, {
        hint: 'Check the flags and values given; run with --help for the accepted ones.',
        details,
      });
    case 401:
      return new AuthError(`The service rejected the API key (401) for ${what}${because}`, {
        hint: 'Check the key: `exercises auth status` shows which one is in use; `exercises auth login` stores a new one.',
        details,
      });
    case 403:
      return new AuthError(`The service refused ${what} (403): your plan does not include it${said ? ` (${said})` : ''}.`, {
        forbidden: true,
        hint: 'Premium fields, images and videos need a premium plan key.',
        details,
      });
    case 404:
      return new NotFoundError(`Not found (404): ${what}${said ? ` — ${said}` : ''}.`, { details });
    case 429:
      // A team proxy (`serve --upstream`) whose monthly budget of upstream requests is spent: its own budget, not the service's limit.
      if (code === 'proxy_budget_exhausted') {
        // Its message is the whole sentence (whose budget, how much, until when); the request is named after it.
        const sentence = said ? said.replace(/\.$/, '') : "The proxy's monthly request budget is spent";
        return new RateLimitError(`${sentence} (429 for ${what}).`, {
          hint: 'Whoever runs the proxy can raise its --budget; until then only answers it has stored are served.',
          details: { ...details, proxyBudget: true },
        });
      }
      return new RateLimitError(`The service is rate limiting requests (429) for ${what}${because}`, {
        hint: 'Wait a while before trying again, or raise --retries; the free plan allows few requests a month.',
        details,
      });
    default:
      if (status === 502 && code === PROXY_KEY_REFUSED_CODE) {
        // The proxy's sentence says whose key and who must act; `final` keeps the retry policy from asking again.
        return new NetworkError(`${said ? said.replace(/\.$/, '') : "The team proxy's upstream key was refused"} (502 for ${what}).`, {
          kind: 'server_error',
          hint: 'The key the proxy uses for the service was refused, not yours: tell whoever runs the proxy. Retrying will not help.',
          details: { ...details, proxyUpstreamKey: true, final: true },
        });
      }
      return new NetworkError(
        status >= 500 ? `The service failed (${status}) on ${what}${because}` : `The service answered ${what} with an unexpected status ${status}${because}`,
        {
          kind: 'server_error',
          hint: status >= 500 ? 'Try again later; run with --verbose to see each attempt.' : 'Run with --verbose to see the request.',
          details,
        },
      );
  }
}
