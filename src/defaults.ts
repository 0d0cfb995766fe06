/**
 * Every default and bound of the CLI, in one place: flags, help strings, `config set`, the
 * settings resolution, `serve` and `--sandbox` all read them from here, so a value is never
 * repeated as a literal. Grouped by what they govern.
 */

// ── The service and the request settings ─────────────────────────────────────────────────

/**
 * Plain http:// to a host that is not loopback: refused unless --allow-insecure,
 * EXERCISES_ALLOW_INSECURE or `config set allow-insecure true` allows it (a LAN proxy).
 */
export const DEFAULT_ALLOW_INSECURE = false;
/** Where requests go when no flag, variable or stored setting says otherwise. */
export const DEFAULT_BASE_URL = 'https://api.wrkout.xyz';
/** The service's default translation language (what is in force when --lang says nothing). */
export const DEFAULT_LANG = 'en-GB';

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_RETRIES = 3;

/** An hour: longer is no use for one request, and Node's timers stop at 2^31-1 ms (~24.8 days). */
export const TIMEOUT_MAX_MS = 3_600_000;
export const RETRIES_MAX = 10;

/** First backoff step of the retry policy; doubles per attempt. */
export const RETRY_BASE_MS = 250;
/** Longest backoff step computed without a Retry-After. */
export const RETRY_MAX_BACKOFF_MS = 8_000;

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
 * The whole command's deadline by default (src/http/deadline.ts): the time a command may
 * spend waiting on JSON requests, retries and their waits included. A person who sets nothing
 * expects a command to give up within about a minute. Bulk commands (download, mirror) have
 * none unless one is set: their media keep the progress rule below.
 */
export const DEFAULT_DEADLINE_SECONDS = 60;
/**
 * The commands that may rightly spend long on JSON requests (a mirror asks for every record):
 * the default deadline spares them; one set by flag, variable or config binds them too.
 */
export const COMMANDS_WITHOUT_DEFAULT_DEADLINE: readonly string[] = ['download', 'mirror'];
/** The largest --deadline / `config set deadline`: a day. */
export const DEADLINE_MAX_SECONDS = 86_400;
/**
 * A media download's bound scales with what arrived: after a grace of DEADLINE_TIMEOUT_FACTOR ×
 * --timeout it must average at least this many bytes per second (so a known size S is done
 * within the grace + S / this rate).
 */
export const MEDIA_MIN_BYTES_PER_SECOND = 8 * 1024;
/** The largest --limit-rate: a terabyte a second, far past any link (the value stays an exact number). */
export const LIMIT_RATE_MAX = 1024 ** 4;

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

/** `show`: record requests in flight at once; enough to hide latency, few enough to be polite. */
export const SHOW_CONCURRENCY = 8;
/** `mirror`: record requests in flight at once. */
export const MIRROR_CONCURRENCY = 4;
/** `download` (default of --concurrency) and `image`/`video`: files downloaded at once. */
export const DEFAULT_DOWNLOAD_CONCURRENCY = 4;
export const MAX_DOWNLOAD_CONCURRENCY = 32;

// ── Local input caps ────────────────────────────────────────────────────────────────────

/** `auth login --with-key`: more than this on stdin is not a key. */
export const KEY_INPUT_MAX_BYTES = 4096;
/**
 * Longest stdin line taken (`show -`, `download -`), in UTF-8 bytes: an id, a tsv row or a
 * jsonl record of ours is far shorter. Lines are split as the stream arrives, so a longer one
 * is refused once this much of it is held, not after reading it whole (a 100 MB line would
 * otherwise cost over a gigabyte).
 */
export const MAX_ID_LINE_BYTES = 4096;

// ── The catalogue server: `serve` and `--sandbox` ───────────────────────────────────────

export const DEFAULT_SERVE_HOST = '127.0.0.1';
export const DEFAULT_SERVE_PORT = 8787;
/** The public keys the sample server accepts when given none, one per plan. */
export const SANDBOX_FREE_KEY = 'sandbox-free';
export const SANDBOX_PREMIUM_KEY = 'sandbox-premium';

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
 * The largest picture drawn at the terminal (`show --images`, `image --view`), in pixels as its
 * PNG header declares them: 16 megapixels, far above any exercise picture, and what keeps a
 * decompression bomb (a few bytes declaring 30000×30000) from costing gigabytes. Its decoded
 * bytes are held to the same bound at 8 bits a channel (PICTURE_PIXEL_BUDGET × 4), so a
 * 16-bit picture may have half the pixels.
 */
export const PICTURE_PIXEL_BUDGET = 16_000_000;

/** Lines of a terminal that does not say (a test's streams): the classic 24. Pictures are fitted to it. */
export const TERMINAL_ROWS_FALLBACK = 24;

/**
 * The largest catalogue file (exercises.jsonl) read: the 873-record sample with translations is
 * a few MB; a catalogue a hundred times that is still read, a device or a runaway file is not.
 */
export const CATALOGUE_FILE_MAX_BYTES = 512 * 1024 * 1024;
/** The largest index of our own read back from the cache directory (a catalogue's record index, completion's). */
export const LOCAL_INDEX_MAX_BYTES = 64 * 1024 * 1024;
/** The request ledger (a count per connection and month): a file larger than this is not one of ours. */
export const LEDGER_FILE_MAX_BYTES = 4 * 1024 * 1024;

/**
 * How long a download waits for another process that holds the same file's lock before it
 * gives up on that file (the lock is `<file>.lock`, refreshed while its holder lives).
 */
export const MEDIA_LOCK_WAIT_MS = 60_000;
/** A lock not refreshed for this long belongs to a process that died: it is taken over. */
export const MEDIA_LOCK_STALE_MS = 10_000;

// ── The response cache and the request budget ─────────────────────────────────────────────

/** How long a cached answer is fresh when the service says nothing (`config set cache-ttl`): 24 h, in seconds. */
export const DEFAULT_CACHE_TTL_SECONDS = 86_400;
/** A year: a longer time to live is surely a typo. */
export const CACHE_TTL_MAX_SECONDS = 366 * 86_400;
/** The request ledger keeps this month and the 13 before it (a year back, and then some, for `quota`). */
export const LEDGER_MONTHS_KEPT = 14;
/** A ledger lock older than this (its holder died) is taken over; a ledger update takes milliseconds. */
export const LEDGER_LOCK_STALE_MS = 10_000;
