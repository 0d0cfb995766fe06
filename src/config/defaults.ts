/**
 * Defaults and bounds of the request settings, in one place: the --timeout/--retries flags,
 * `config set timeout|retries` and the settings resolution all read them from here.
 */

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_RETRIES = 3;

/** An hour: longer is no use for one request, and Node's timers stop at 2^31-1 ms (~24.8 days). */
export const TIMEOUT_MAX_MS = 3_600_000;
export const RETRIES_MAX = 10;
