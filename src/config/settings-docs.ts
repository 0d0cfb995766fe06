/**
 * The settings table as help and the docs print it: every default and what changes it (`help
 * defaults`), and every environment variable the CLI reads (`help environment`).
 */
import {
  DEFAULT_DOWNLOAD_CONCURRENCY,
  DEFAULT_SERVE_HOST,
  DEFAULT_SERVE_PORT,
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
import { formatDuration } from './parsers.js';
import { MEDIA_MIN_BYTES_PER_SECOND, TIMEOUTS_PER_REQUEST } from './time-limits.js';
import { SETTINGS } from './settings-table.js';
import { defaultText, longFlag } from './settings.js';

export interface DefaultRow {
  name: string;
  value: string;
  flag?: string;
  env?: string;
  configKey?: string;
}

const MIB = 1024 * 1024;

/** The settings with something to default, then the fixed bounds and the per-command defaults. */
export function defaultsTable(): DefaultRow[] {
  const settings: DefaultRow[] = SETTINGS.filter((s) => (s.type !== 'switch' && defaultText(s) !== undefined) || s.stored === true).map((spec) => ({
    name: spec.name,
    value: defaultText(spec) ?? 'none',
    flag: longFlag(spec),
    ...(spec.variable ? { env: spec.variable } : {}),
    ...(spec.stored ? { configKey: spec.name } : {}),
  }));
  return [
    ...settings,
    { name: 'page size', value: `${LIMIT_DEFAULT} (${LIMIT_MAX} with --all)`, flag: '--limit' },
    { name: 'download concurrency', value: `${DEFAULT_DOWNLOAD_CONCURRENCY} (at most ${MAX_DOWNLOAD_CONCURRENCY})`, flag: 'download --concurrency' },
    { name: 'image/video concurrency', value: String(DEFAULT_DOWNLOAD_CONCURRENCY) },
    { name: 'show concurrency', value: String(SHOW_CONCURRENCY) },
    { name: 'mirror concurrency', value: `${MIRROR_CONCURRENCY} (records and media)` },
    { name: 'retry backoff', value: `${formatDuration(RETRY_BASE_MS)} doubling, at most ${formatDuration(RETRY_MAX_BACKOFF_MS)}` },
    { name: 'longest Retry-After waited', value: formatDuration(RETRY_AFTER_CAP_MS) },
    { name: 'attempts per item', value: `at most ${MAX_ATTEMPTS_PER_ITEM}` },
    { name: 'request deadline', value: `${TIMEOUTS_PER_REQUEST} × --timeout; a download, that and its size at ${MEDIA_MIN_BYTES_PER_SECOND / 1024} KiB/s` },
    { name: 'largest JSON answer', value: `${JSON_SIZE_CAP / MIB} MiB` },
    { name: 'largest media file', value: `image ${MEDIA_SIZE_CAP_BYTES.image / MIB} MiB, video ${MEDIA_SIZE_CAP_BYTES.video / MIB} MiB` },
    { name: 'wait for a file another process writes', value: formatDuration(MEDIA_LOCK_WAIT_MS) },
    { name: 'serve address', value: `${DEFAULT_SERVE_HOST}:${DEFAULT_SERVE_PORT}`, flag: 'serve --host/--port' },
  ];
}

/** What changes a default: `--timeout`, `EXERCISES_DEADLINE`, `config timeout`. */
export function changedBy(row: DefaultRow): string[] {
  return [row.flag, row.env, row.configKey ? `config ${row.configKey}` : undefined].filter((how) => how !== undefined);
}

export interface EnvironmentVariable {
  name: string;
  meaning: string;
}

function settingVariables(): EnvironmentVariable[] {
  return SETTINGS.flatMap((s) => {
    if (!s.variable) return [];
    const flag = longFlag(s);
    const between = [s.stored ? 'over the stored value' : undefined, flag ? `${flag} over it` : undefined].filter((p) => p !== undefined);
    return [{ name: s.variable, meaning: between.length === 0 ? s.description : `${s.description} (${between.join('; ')})` }];
  });
}

/** Every variable the CLI reads: the settings' own, then the ones that stand for no setting. */
export function environmentVariables(): EnvironmentVariable[] {
  return [
    ...settingVariables(),
    { name: 'EXERCISES_UPSTREAM_KEY', meaning: 'serve --upstream: the key sent to the upstream service (over --upstream-key-file and the stored key)' },
    {
      name: 'HTTPS_PROXY',
      meaning: 'forward proxy for https:// requests (a CONNECT tunnel), as curl reads it (https_proxy over it; credentials in its URL masked in every message)',
    },
    { name: 'HTTP_PROXY', meaning: 'forward proxy for http:// requests, sent in absolute form (http_proxy over it); loopback is never proxied' },
    {
      name: 'NO_PROXY',
      meaning: 'hosts reached directly, comma-separated: a name covers the names under it, host:port, an IP, or * alone for all (no_proxy over it)',
    },
    { name: 'EXERCISES_PAGER', meaning: 'pager for long tables on a terminal (over PAGER; default less -FRX; cat or empty: none)' },
    { name: 'PAGER', meaning: 'pager, when EXERCISES_PAGER is unset' },
    { name: 'BROWSER', meaning: 'the command that opens a --web page (else the system opener; over SSH or without a display the path is printed)' },
    { name: 'NO_COLOR', meaning: 'no colour when set to anything but the empty string' },
    { name: 'XDG_CONFIG_HOME', meaning: 'where the config file lives ($XDG_CONFIG_HOME/exercises/config.json)' },
    { name: 'XDG_CACHE_HOME', meaning: 'where the caches live ($XDG_CACHE_HOME/exercises/)' },
    { name: 'NODE_EXTRA_CA_CERTS', meaning: "Node's own: a PEM file of CA certificates also trusted (a company's or private CA)" },
  ];
}
