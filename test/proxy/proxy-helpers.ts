/**
 * A proxy for a test: the project's catalogue server as the upstream (counting its requests),
 * `createProxyServer` in front of it with two client keys, a cache directory, a ledger and a
 * media directory under one temp dir, and an access log kept in memory. Everything is removed
 * by `stop()`.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { type ProxyServer, type ProxyServerOptions, createProxyServer } from '../../src/proxy/proxy-server.js';
import { type CatalogueServer, PREMIUM_KEY, startServer } from '../helpers/server.js';
import { tempDir } from '../helpers/temp.js';

export const UPSTREAM_KEY = PREMIUM_KEY;
export const ALICE = 'alice-key-0123456789';
export const GUEST = 'guest-key-9876543210';

export interface ProxyFixture {
  upstream: CatalogueServer;
  proxy: ProxyServer;
  root: string;
  log: string[];
  warnings: string[];
  /** Upstream requests seen since the fixture started. */
  upstreamCount(): number;
  get(path: string, key?: string, headers?: Record<string, string>): Promise<Response>;
  stop(): Promise<void>;
}

export async function startProxy(
  overrides: Partial<Omit<ProxyServerOptions, 'upstream'>> & {
    budget?: number | null;
    upstream?: CatalogueServer;
    upstreamTimeoutMs?: number;
    /** cache-ttl, ms: an hour by default. */
    cacheTtl?: number;
    /** The key the proxy sends upstream (UPSTREAM_KEY by default), and where it says it came from. */
    upstreamKey?: string;
    keySource?: string;
  } = {},
): Promise<ProxyFixture> {
  const root = tempDir('exercises-proxy-');
  const upstream = overrides.upstream ?? (await startServer());
  const log: string[] = [];
  const warnings: string[] = [];
  const { budget = null, upstream: _u, upstreamTimeoutMs = 5_000, cacheTtl = 3_600_000, upstreamKey = UPSTREAM_KEY, keySource, ...rest } = overrides;
  const proxy = await createProxyServer({
    upstream: {
      baseUrl: upstream.url,
      apiKey: upstreamKey,
      ...(keySource ? { keySource } : {}),
      ledgerPath: join(root, 'ledger.json'),
      warn: (line) => warnings.push(line),
    },
    cacheDir: join(root, 'http'),
    dir: join(root, 'media'),
    keys: { [ALICE]: { plan: 'premium' }, [GUEST]: { plan: 'free' } },
    host: '127.0.0.1',
    port: 0,
    settings: { timeout: upstreamTimeoutMs, budget: budget ?? undefined, cacheTtl },
    log: (line) => log.push(line),
    warn: (line) => warnings.push(line),
    graceMs: 2_000,
    ...rest,
  });
  const base = upstream.requests.length;
  return {
    upstream,
    proxy,
    root,
    log,
    warnings,
    upstreamCount: () => upstream.requests.length - base,
    get: (path, key = ALICE, headers = {}) => fetch(`${proxy.url}${path}`, { headers: { 'x-api-key': key, ...headers } }),
    async stop() {
      await proxy.close();
      if (!overrides.upstream) await upstream.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Stops what a test started, either possibly missing: the proxy first, then an upstream of the test's own. */
export async function stopFixtures(f: ProxyFixture | undefined, upstream: CatalogueServer | undefined): Promise<void> {
  await f?.stop();
  await upstream?.close();
}
