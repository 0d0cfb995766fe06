/**
 * Which project error a failed HTTP status becomes, quoting the server's own message when it
 * has our error shape. Shared by JSON requests (transport.ts) and media downloads.
 */
import { AuthError, type CliError, NetworkError, NotFoundError, RateLimitError, UsageError } from '../errors.js';
import { oneLine, shorten } from '../util/text.js';

/**
 * The `message` of our server's error shape `{"error":{"code","message","parameter?"}}`,
 * cleaned for a terminal and shortened; undefined for any other body.
 */
export function serverErrorMessage(body: string | undefined, redact: (text: string) => string = (text) => text): string | undefined {
  if (!body) return undefined;
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } };
    const message = parsed?.error?.message;
    if (typeof message !== 'string' || message.trim() === '') return undefined;
    // Redacted once decoded: JSON escapes (`\\u001b`, `\\u0033`) could spell the key in the raw body.
    const clean = oneLine(redact(message)).replace(/\s+/g, ' ').trim();
    return shorten(clean, 300);
  } catch {
    return undefined;
  }
}

/** The `code` of our error shape, or undefined for any other body. */
function serverErrorCode(body: string | undefined): string | undefined {
  if (!body) return undefined;
  try {
    const code = (JSON.parse(body) as { error?: { code?: unknown } })?.error?.code;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}

/** The code of a team proxy's 502 when the service refused the proxy's own key (src/proxy/answers.ts sends it): no retry cures that. */
export const PROXY_KEY_REFUSED_CODE = 'upstream_key_refused';

/**
 * Maps a non-2xx status to the project's error. `what` names the request for the message
 * (e.g. "GET /exercise/query"); `body` is the response text, whose server message is quoted
 * when it has our JSON error shape.
 */
export function errorForStatus(status: number, what: string, body?: string, redact?: (text: string) => string): CliError {
  const said = serverErrorMessage(body, redact);
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
      if (serverErrorCode(body) === 'proxy_budget_exhausted') {
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
      if (status === 502 && serverErrorCode(body) === PROXY_KEY_REFUSED_CODE) {
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
