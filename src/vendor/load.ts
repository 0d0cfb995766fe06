/**
 * The loaders of the heavy packages, the only import() of a package in src/: each package is
 * loaded when its loader is first called, and the bundle keeps each in a vendor file of its own
 * (scripts/bundle.mjs VENDOR), so one loader never brings in another's package. Beside each, what
 * the package brings with it and who needs it.
 */
import type CachePolicy from 'http-cache-semantics';
import type Table from 'cli-table3';

/**
 * undici, the HTTP client behind every request (src/http/attempt.ts makes its one Agent). Loaded when the first request
 * really goes out: its vendor file (llhttp's WebAssembly among it) brings node:http, node:net and friends, and
 * the launcher sets V8's --liftoff-only just before it (bin/startup/liftoff.js). `--help`, `--version`, completion and
 * cache hits never load it (test/http/lazy-undici.test.ts, test/cache/hit-loads-no-http.test.ts).
 */
export const loadUndici = () => import('undici');

/**
 * conf, the writer of the stored config file (src/config/store.ts): only `auth login|logout` and `config set|unset`
 * write, every other command reads the file with node:fs. It brings ajv, atomically and env-paths.
 */
export const loadConf = () => import('conf');

/** chalk, the colours of tables, JSON and messages (src/output/colour.ts): only when colour is on, with its terminal probing. */
export const loadChalk = () => import('chalk');

/** cli-table3 (src/output/table.ts): only the table format, which `--help`, JSON and every pipe (tsv) never load. */
export const loadCliTable3 = async (): Promise<typeof Table> => (await import('cli-table3')).default;

/**
 * string-width, terminal width of text that is not plain Latin (src/output/width.ts), with the layouts that fit text to
 * the terminal: at load it builds an Intl.Segmenter and Unicode-property regular expressions (the RGI emoji set among them).
 */
export const loadStringWidth = () => import('string-width');

/** read, the hidden-input prompt of `auth login` at a terminal without --with-key (src/commands/auth.ts): readline and a muted stream. */
export const loadRead = () => import('read');

/**
 * @inquirer/search, the fuzzy picker at a terminal (src/prompt/pick.ts: `show` with no id, `query --pick`), with
 * readline and @inquirer/core's rendering (test/terminal/lazy-load.test.ts).
 */
export const loadInquirerSearch = () => import('@inquirer/search');

/**
 * http-cache-semantics (RFC 9111), the one set of cache rules of the response cache and the team proxy
 * (src/cache/headers.ts): loaded when an answer is stored or revalidated; a cache hit compares times decided at storing.
 */
export const loadCachePolicy = async (): Promise<typeof CachePolicy> => (await import('http-cache-semantics')).default;

/** prom-client, the Prometheus text of the team proxy's /-/metrics (src/proxy/metrics.ts): only `serve --upstream` loads it. */
export const loadPromClient = () => import('prom-client');

/** ioredis, the team proxy's link to the Redis its replicas share (src/proxy/shared-state.ts): only `serve --upstream --shared-state`. */
export const loadIoredis = async () => (await import('ioredis')).Redis;
