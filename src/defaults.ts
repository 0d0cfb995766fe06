/** The CLI's fixed defaults and bounds, values only; a setting's default is in its row of the settings table, never here. */

// ── The service and requests ──────────────────────────────────────────────────────────

/** The language the service answers in when asked for none (spec); the catalogue server's too. */
export const SERVICE_LANG = 'en-GB';

/** The retry backoff, JSON and media alike: its first step (doubling) and its longest. */
export const RETRY_BASE_MS = 250;
export const RETRY_MAX_BACKOFF_MS = 8_000;
/** A longer Retry-After is not waited out: the request gives up, saying how long. */
export const RETRY_AFTER_CAP_MS = 30_000;
/** Attempts per item in all: a download that keeps bringing bytes may retry past --retries, never past this. */
export const MAX_ATTEMPTS_PER_ITEM = 20;

/** Largest JSON answer accepted; a list page of 25 summaries is a few KiB, a record less. */
export const JSON_SIZE_CAP = 8 * 1024 * 1024;
/** How much of an error body is read to quote the server's message. */
export const ERROR_BODY_CAP = 64 * 1024;

// ── Paging (spec §8) ────────────────────────────────────────────────────────────────────

/** `--limit`: results per request, within the spec's bounds; the default page size. */
export const LIMIT_MIN = 1;
export const LIMIT_MAX = 25;
export const LIMIT_DEFAULT = 10;

// ── Concurrency ─────────────────────────────────────────────────────────────────────────

/** `show`: record requests in flight: enough to hide latency, few enough to be polite. */
export const SHOW_CONCURRENCY = 8;
export const MIRROR_CONCURRENCY = 4;
/** `download` (default of --concurrency) and `image`/`video`: files downloaded at once. */
export const DEFAULT_DOWNLOAD_CONCURRENCY = 4;
export const MAX_DOWNLOAD_CONCURRENCY = 32;

// ── Local input caps ────────────────────────────────────────────────────────────────────

/** `auth login --with-key`: more than this on stdin is not a key. */
export const KEY_INPUT_MAX_BYTES = 4096;
/** Longest stdin line taken (`show -`), in UTF-8 bytes, refused once this much is held. */
export const MAX_ID_LINE_BYTES = 4096;

// ── The catalogue server: `serve` and `--sandbox` ───────────────────────────────────────

export const DEFAULT_SERVE_HOST = '127.0.0.1';
export const DEFAULT_SERVE_PORT = 8787;
/** The public keys the sample server accepts when given none, one per plan. */
export const SANDBOX_FREE_KEY = 'sandbox-free';
export const SANDBOX_PREMIUM_KEY = 'sandbox-premium';

/** Largest media file accepted, per kind: far above any real exercise picture or clip, far below a full disk. */
export const MEDIA_SIZE_CAP_BYTES = {
  image: 50 * 1024 * 1024,
  video: 4 * 1024 * 1024 * 1024,
} as const;

/** The largest picture drawn, in pixels as its PNG header declares them: what keeps a decompression bomb from costing gigabytes. */
export const PICTURE_PIXEL_BUDGET = 16_000_000;

/** Lines of a terminal that does not say: the classic 24. */
export const TERMINAL_ROWS_FALLBACK = 24;

/** The largest exercises.jsonl read: a hundred times the sample, not a device or a runaway file. */
export const CATALOGUE_FILE_MAX_BYTES = 512 * 1024 * 1024;
/** The largest index of our own read back from the cache directory. */
export const LOCAL_INDEX_MAX_BYTES = 64 * 1024 * 1024;
/** A ledger file larger than this is not one of ours. */
export const LEDGER_FILE_MAX_BYTES = 4 * 1024 * 1024;

/** How long a download waits for another process's lock on the same file. */
export const MEDIA_LOCK_WAIT_MS = 60_000;
export const MEDIA_LOCK_STALE_MS = 10_000;

// ── The response cache and the request budget ─────────────────────────────────────────────

/** The ledger keeps this month and the 13 before it. */
export const LEDGER_MONTHS_KEPT = 14;
/** A ledger lock older than this (its holder died) is taken over. */
export const LEDGER_LOCK_STALE_MS = 10_000;
