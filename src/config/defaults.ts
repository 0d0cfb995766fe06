/**
 * Defaults and bounds of the request settings, in one place: the --timeout/--retries flags,
 * `config set timeout|retries` and the settings resolution all read them from here.
 */

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_RETRIES = 3;

/** An hour: longer is no use for one request, and Node's timers stop at 2^31-1 ms (~24.8 days). */
export const TIMEOUT_MAX_MS = 3_600_000;
export const RETRIES_MAX = 10;

/**
 * The retry policy's bounds (src/http/retry-policy.ts), the same for JSON requests and media.
 * A Retry-After longer than RETRY_AFTER_CAP_MS is not waited out: the request gives up at once,
 * saying how long the service asks to wait.
 */
export const RETRY_AFTER_CAP_MS = 30_000;
/**
 * Attempts per item in all. --retries bounds the attempts that fail without bringing anything
 * new; a media download whose failures keep bringing bytes may try again past that, but never
 * more than this many times.
 */
export const MAX_ATTEMPTS_PER_ITEM = 20;

/**
 * Every timeout above is an idle timeout (connect, headers, body: each --timeout); a server
 * dripping a byte now and then never trips them. So each request also has a bound on its whole
 * life (src/http/deadline.ts): a JSON request, connect to last body byte, at most this many
 * times --timeout (connect, headers and body may each take one --timeout).
 */
export const DEADLINE_TIMEOUT_FACTOR = 3;
/**
 * A media download's bound scales with what arrived: after a grace of DEADLINE_TIMEOUT_FACTOR ×
 * --timeout it must average at least this many bytes per second (so a known size S is done
 * within the grace + S / this rate).
 */
export const MEDIA_MIN_BYTES_PER_SECOND = 8 * 1024;
