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
 * Largest media file accepted, per kind (DownloadOptions.maxBytes overrides it). A server that
 * announces more is refused before anything is written; a body that grows past it is cut off
 * and its `.part` removed. Far above any real exercise picture or clip, far below a full disk.
 */
export const MEDIA_SIZE_CAP_BYTES = {
  image: 50 * 1024 * 1024,
  video: 4 * 1024 * 1024 * 1024,
} as const;

/**
 * How long a download waits for another process that holds the same file's lock before it
 * gives up on that file (the lock is `<file>.lock`, refreshed while its holder lives).
 */
export const MEDIA_LOCK_WAIT_MS = 60_000;
/** A lock not refreshed for this long belongs to a process that died: it is taken over. */
export const MEDIA_LOCK_STALE_MS = 10_000;
