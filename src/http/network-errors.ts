/**
 * Turning a failure of the connection (undici's errors, the socket's, DNS's) into the
 * project's NetworkError: one sentence naming the host and what went wrong, kind 'timeout'
 * for timeouts and 'network' for the rest. Errors that already are the project's pass as is.
 */
import { CliError, NetworkError } from '../errors.js';

/** The error code of `err`, or of the first of an AggregateError's (Node's address-family race), or of its cause. */
function errorCode(err: unknown): string {
  const e = err as { code?: unknown; errors?: unknown; cause?: unknown } | undefined;
  if (typeof e?.code === 'string' && e.code !== '') return e.code;
  if (Array.isArray(e?.errors) && e.errors.length > 0) return errorCode(e.errors[0]);
  const cause = e?.cause as { code?: unknown } | undefined;
  return typeof cause?.code === 'string' ? cause.code : '';
}

/**
 * Failures that provably came before the request was written. undici calls a handler's
 * onRequestStart just before it writes the request to a connected socket (client-h1.js
 * writeH1); a DNS failure, a refused connection, a connect timeout, a failed TLS handshake and
 * a forward proxy refusing or failing the CONNECT all fail the queued request before that
 * (connect.js, proxy-agent.js, client.js handleConnectError). dispatch-body.ts marks them,
 * attempt.ts keeps the mark on the project's error, and the request ledger gives such an
 * attempt's count back (counting.ts). Anything after onRequestStart stays counted.
 */
const neverWritten = new WeakSet<object>();

export function markNeverWritten<T>(err: T): T {
  if (typeof err === 'object' && err !== null) neverWritten.add(err);
  return err;
}

export function wasNeverWritten(err: unknown): boolean {
  return typeof err === 'object' && err !== null && neverWritten.has(err);
}

/** The forward proxy a failed request went through, as proxy-env.ts names it (credentials masked). */
export interface ProxyUsed {
  shown: string;
  variable: string;
}

/**
 * `redactText` keeps the key out of whatever text is quoted (a URL, a library's message).
 * `timeoutMs` is the idle timeout in force, for the message. `proxy`: the request went through
 * one, and the failure may be the proxy's (a refused connection to it looks the same): the hint says so.
 */
export function networkError(err: unknown, url: URL, timeoutMs: number, redactText: (text: string) => string, proxy?: ProxyUsed): CliError {
  if (err instanceof CliError) return err;
  const code = errorCode(err);
  const host = url.host;
  const hint = proxy
    ? `The request went through the proxy ${proxy.shown} (${proxy.variable}): check that proxy, or list ${url.hostname} in NO_PROXY to go direct.`
    : 'Check the base URL and your connection; --timeout and --retries adjust how patient the client is.';
  const details = { url: redactText(url.href), code: code || undefined };
  const make = (message: string, kind: 'network' | 'timeout'): NetworkError => new NetworkError(message, { kind, hint, details, cause: err });
  switch (code) {
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'ETIMEDOUT':
      return make(`Could not connect to ${host} within ${timeoutMs} ms.`, 'timeout');
    case 'UND_ERR_HEADERS_TIMEOUT':
      return make(`${host} did not answer within ${timeoutMs} ms.`, 'timeout');
    case 'UND_ERR_BODY_TIMEOUT':
      return make(`${host} stopped sending its answer for ${timeoutMs} ms.`, 'timeout');
    case 'ECONNREFUSED':
      return make(`Could not connect to ${host}: connection refused.`, 'network');
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return make(`Could not resolve the host name ${url.hostname}.`, 'network');
    case 'UND_ERR_SOCKET':
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_ABORTED':
    case 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH':
    case 'ERR_STREAM_PREMATURE_CLOSE':
      return make(`The connection to ${host} was dropped before the answer was complete.`, 'network');
    default: {
      const text = err instanceof Error ? err.message : String(err);
      if (/certificate|CERT_|SSL|TLS/i.test(`${code} ${text}`)) {
        return make(`Secure connection to ${host} failed: ${redactText(text)}.`, 'network');
      }
      return make(`Request to ${host} failed: ${redactText(text)}.`, 'network');
    }
  }
}

/** The failure of a request that ran past its whole-life bound (deadline.ts). */
export function deadlineError(url: URL, elapsedMs: number, rule: string, redactText: (text: string) => string): NetworkError {
  return new NetworkError(`${url.host} took ${Math.round(elapsedMs)} ms and had not finished its answer (${rule}).`, {
    kind: 'timeout',
    hint: 'The server is answering too slowly; --timeout sets how patient the client is.',
    details: { url: redactText(url.href), code: 'DEADLINE' },
  });
}
