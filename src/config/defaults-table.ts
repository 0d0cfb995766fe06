/**
 * Every default the CLI runs with, one row each: its value (from src/defaults.ts), the flag
 * that overrides it, its environment variable and its config key (from the one declaration of
 * each: GLOBAL_FLAGS, CONFIG_KEYS). `exercises help defaults` prints it; docs/design.md
 * describes the same rows.
 */
import {
  DEFAULT_CACHE_TTL_SECONDS,
  DEFAULT_DOWNLOAD_CONCURRENCY,
  DEFAULT_SERVE_HOST,
  DEFAULT_SERVE_PORT,
  DEADLINE_TIMEOUT_FACTOR,
  JSON_SIZE_CAP,
  LIMIT_DEFAULT,
  LIMIT_MAX,
  MAX_ATTEMPTS_PER_ITEM,
  MAX_DOWNLOAD_CONCURRENCY,
  MEDIA_LOCK_WAIT_MS,
  MEDIA_SIZE_CAP_BYTES,
  MIRROR_CONCURRENCY,
  RETRY_AFTER_CAP_MS,
  RETRY_BASE_MS,
  RETRY_MAX_BACKOFF_MS,
  SHOW_CONCURRENCY,
} from '../defaults.js';
import { GLOBAL_FLAGS, flagName } from './global-flags.js';
import { CONFIG_KEYS } from './keys.js';

export interface DefaultRow {
  name: string;
  value: string;
  /** The flag that overrides it, as typed (`--timeout`, `download --concurrency`). */
  flag?: string;
  env?: string;
  /** The `exercises config set` key. */
  configKey?: string;
}

const MIB = 1024 * 1024;

/** The settings a user stores or overrides (CONFIG_KEYS), then the fixed bounds and the per-command defaults. */
export function defaultsTable(): DefaultRow[] {
  const settings: DefaultRow[] = CONFIG_KEYS.map((spec) => {
    const flag = GLOBAL_FLAGS.find((f) => f.setting === spec.key);
    const value = spec.key === 'cache-ttl' ? `${DEFAULT_CACHE_TTL_SECONDS / 3600}h` : spec.defaultValue !== undefined ? String(spec.defaultValue) : 'none';
    return {
      name: spec.key,
      value,
      ...(flag ? { flag: flagName(flag.key) } : {}),
      ...(spec.env ? { env: spec.env } : {}),
      configKey: spec.key,
    };
  });
  return [
    ...settings,
    { name: 'page size', value: `${LIMIT_DEFAULT} (${LIMIT_MAX} with --all)`, flag: '--limit' },
    { name: 'download concurrency', value: `${DEFAULT_DOWNLOAD_CONCURRENCY} (at most ${MAX_DOWNLOAD_CONCURRENCY})`, flag: 'download --concurrency' },
    { name: 'image/video concurrency', value: String(DEFAULT_DOWNLOAD_CONCURRENCY) },
    { name: 'show concurrency', value: String(SHOW_CONCURRENCY) },
    { name: 'mirror concurrency', value: `${MIRROR_CONCURRENCY} (records and media)` },
    { name: 'retry backoff', value: `${RETRY_BASE_MS} ms doubling, at most ${RETRY_MAX_BACKOFF_MS} ms` },
    { name: 'longest Retry-After waited', value: `${RETRY_AFTER_CAP_MS} ms` },
    { name: 'attempts per item', value: `at most ${MAX_ATTEMPTS_PER_ITEM}` },
    { name: 'request deadline', value: `${DEADLINE_TIMEOUT_FACTOR} × --timeout` },
    { name: 'largest JSON answer', value: `${JSON_SIZE_CAP / MIB} MiB` },
    { name: 'largest media file', value: `image ${MEDIA_SIZE_CAP_BYTES.image / MIB} MiB, video ${MEDIA_SIZE_CAP_BYTES.video / MIB} MiB` },
    { name: 'wait for a file another process writes', value: `${MEDIA_LOCK_WAIT_MS} ms` },
    { name: 'serve address', value: `${DEFAULT_SERVE_HOST}:${DEFAULT_SERVE_PORT}`, flag: 'serve --host/--port' },
  ];
}
