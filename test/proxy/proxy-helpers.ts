/**
 * A proxy for a test: the project's catalogue server as the upstream (counting its requests),
 * `createProxyServer` in front of it with two client keys, a cache directory, a ledger and a
 * media directory under one temp dir, and an access log kept in memory. Everything is removed
 * by `stop()`. And `serve` as a child process, as an operator runs it (withServeProcess).
 */
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { type ProxyServer, type ProxyServerOptions, createProxyServer } from '../../src/proxy/proxy-server.js';
import { type CatalogueServer, PREMIUM_KEY, startServer } from '../helpers/server.js';
import { tempDir } from '../helpers/temp.js';
import { type CliResult, runCli } from '../helpers/run-cli.js';

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

/** Resolves once `text()` matches `pattern` (polled: the child writes when it likes). */
export async function until(text: () => string, pattern: RegExp, ms = 20_000): Promise<RegExpMatchArray> {
  const end = Date.now() + ms;
  for (;;) {
    const match = text().match(pattern);
    if (match) return match;
    if (Date.now() > end) throw new Error(`waited ${ms} ms for ${pattern} in:\n${text()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** `exercises serve …args` (the built CLI) as a child process: `use` gets it, its URL once it listens and its stderr so far; then SIGTERM stops it. */
export async function withServeProcess(
  args: string[],
  env: Record<string, string>,
  use: (child: ChildProcess, url: string, stderr: () => string) => Promise<void>,
): Promise<CliResult> {
  let child: ChildProcess | undefined;
  let [out, err] = ['', ''];
  const done = runCli(['serve', '--port', '0', ...args], {
    env,
    timeoutMs: 90_000,
    onSpawn(c) {
      child = c;
      c.stdout?.on('data', (b: Buffer) => (out += b.toString('utf8')));
      c.stderr?.on('data', (b: Buffer) => (err += b.toString('utf8')));
    },
  });
  try {
    const url = (await until(() => out, /Listening on (\S+)\n/))[1]!;
    await use(child!, url, () => err);
  } finally {
    child?.kill('SIGTERM');
  }
  return done;
}
