/**
 * Every default the CLI runs with, one row each: first the settings (settings-table.ts) with
 * their default in the units `config list` shows (30s, 24h), the flag, variable and config key
 * that change them; then the fixed bounds and per-command defaults (src/defaults.ts).
 * `exercises help defaults` and docs/commands.md print it.
 */
import {
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
import { SETTINGS, defaultText } from './settings-table.js';
import { formatDuration } from './duration.js';

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

/** The settings with something to default (a flag that only switches is no default), then the fixed bounds and the per-command defaults. */
export function defaultsTable(): DefaultRow[] {
  const settings: DefaultRow[] = SETTINGS.filter((s) => (s.type !== 'switch' && defaultText(s) !== undefined) || s.stored === true).map((spec) => ({
    name: spec.key,
    value: defaultText(spec) ?? 'none',
    ...(spec.flags ? { flag: /--[a-z-]+/.exec(spec.flags)![0] } : {}),
    ...(spec.env ? { env: spec.env } : {}),
    ...(spec.stored ? { configKey: spec.key } : {}),
  }));
  return [
    ...settings,
    { name: 'page size', value: `${LIMIT_DEFAULT} (${LIMIT_MAX} with --all)`, flag: '--limit' },
    { name: 'download concurrency', value: `${DEFAULT_DOWNLOAD_CONCURRENCY} (at most ${MAX_DOWNLOAD_CONCURRENCY})`, flag: 'download --concurrency' },
    { name: 'image/video concurrency', value: String(DEFAULT_DOWNLOAD_CONCURRENCY) },
    { name: 'show concurrency', value: String(SHOW_CONCURRENCY) },
    { name: 'mirror concurrency', value: `${MIRROR_CONCURRENCY} (records and media)` },
    { name: 'retry backoff', value: `${formatDuration(RETRY_BASE_MS, 'ms')} doubling, at most ${formatDuration(RETRY_MAX_BACKOFF_MS, 'ms')}` },
    { name: 'longest Retry-After waited', value: formatDuration(RETRY_AFTER_CAP_MS, 'ms') },
    { name: 'attempts per item', value: `at most ${MAX_ATTEMPTS_PER_ITEM}` },
    { name: 'request deadline', value: `${DEADLINE_TIMEOUT_FACTOR} × --timeout` },
    { name: 'largest JSON answer', value: `${JSON_SIZE_CAP / MIB} MiB` },
    { name: 'largest media file', value: `image ${MEDIA_SIZE_CAP_BYTES.image / MIB} MiB, video ${MEDIA_SIZE_CAP_BYTES.video / MIB} MiB` },
    { name: 'wait for a file another process writes', value: formatDuration(MEDIA_LOCK_WAIT_MS, 'ms') },
    { name: 'serve address', value: `${DEFAULT_SERVE_HOST}:${DEFAULT_SERVE_PORT}`, flag: 'serve --host/--port' },
  ];
}

/** What changes a default, as help and the docs list it: `--timeout`, `EXERCISES_DEADLINE`, `config timeout`. */
export function changedBy(row: DefaultRow): string[] {
  return [row.flag, row.env, row.configKey ? `config ${row.configKey}` : undefined].filter((how) => how !== undefined);
}
