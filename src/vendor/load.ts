/** The loaders of the heavy packages, the only import() of a package in src/: each loaded when first needed, in a vendor file of its own. */
import type CachePolicy from 'http-cache-semantics';
import type Table from 'cli-table3';

/** undici, the HTTP client behind every request: loaded when the first request really goes out. */
export const loadUndici = () => import('undici');

/** conf, the writer of the stored config file: only `auth login|logout` and `config set|unset` write. */
export const loadConf = () => import('conf');

/** chalk: only when colour is on. */
export const loadChalk = () => import('chalk');

/** cli-table3: only the table format. */
export const loadCliTable3 = async (): Promise<typeof Table> => (await import('cli-table3')).default;

/** string-width, the terminal width of text that is not plain Latin. */
export const loadStringWidth = () => import('string-width');

/** read, the hidden-input prompt of `auth login`. */
export const loadRead = () => import('read');

/** @inquirer/search, the picker's short choices. */
export const loadInquirerSearch = () => import('@inquirer/search');

/** http-cache-semantics (RFC 9111), the cache rules of the response cache and the team proxy: loaded when an answer is stored or revalidated. */
export const loadCachePolicy = async (): Promise<typeof CachePolicy> => (await import('http-cache-semantics')).default;

/** prom-client, the Prometheus text of the team proxy's /-/metrics (src/proxy/metrics.ts): only `serve --upstream` loads it. */
export const loadPromClient = () => import('prom-client');

/** ioredis, the team proxy's link to the Redis its replicas share (src/proxy/shared-state.ts): only `serve --upstream --shared-state`. */
export const loadIoredis = async () => (await import('ioredis')).Redis;
