/**
 * Defaults and bounds of the request settings, in one place: the --timeout/--retries flags,
 * `config set timeout|retries` and the settings resolution all read them from here.
 */

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_RETRIES = 3;
