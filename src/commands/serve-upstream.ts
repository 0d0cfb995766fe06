/**
 * `serve --upstream <url> [dir]`: the pull-through caching proxy (src/proxy). This file
 * only gathers what it needs: the upstream key (EXERCISES_UPSTREAM_KEY, an owner-only
 * --upstream-key-file, or the stored key — never a flag value), the clients' keys (--key,
 * an owner-only --keys-file), the shared cache and ledger of this user, the budget in force.
 */
import type { Context } from '../context.js';
import { AuthError, UsageError } from '../errors.js';
import { readOwnerOnlyFile, parseKeyFile, parseKeysFile } from '../proxy/secret-files.js';
import { readStoredConfig } from '../config/parsers.js';
import { isLoopbackHost } from '../util/url-policy.js';
import { join } from 'node:path';
import { createProxyServer } from '../proxy/proxy-server.js';
import { cacheRoot, httpCacheDir, ledgerPath } from '../cache/paths.js';

type Plan = 'free' | 'premium';

export interface UpstreamServeOptions {
  upstream: string;
  upstreamKeyFile?: string;
  keysFile?: string;
  /** From --key. */
  keys?: Record<string, Plan>;
  dir?: string;
  host: string;
  port: number;
}

async function upstreamKey(options: UpstreamServeOptions, ctx: Context): Promise<string> {
  const fromEnv = ctx.env.EXERCISES_UPSTREAM_KEY?.trim();
  if (fromEnv) return fromEnv;
  if (options.upstreamKeyFile !== undefined) {
    return parseKeyFile(readOwnerOnlyFile(options.upstreamKeyFile, '--upstream-key-file'), options.upstreamKeyFile);
  }
  const stored = readStoredConfig(ctx.env)['api-key'];
  if (typeof stored === 'string' && stored.trim() !== '') return stored.trim();
  throw new AuthError(
    'No upstream key for the proxy: set EXERCISES_UPSTREAM_KEY, pass --upstream-key-file <path> (mode 600), or store one with `exercises auth login`.',
    {
      hint: 'The upstream key is never taken from a flag value: flags show in `ps` and shell history.',
    },
  );
}

async function clientKeys(options: UpstreamServeOptions): Promise<Record<string, Plan>> {
  const keys: Record<string, Plan> = { ...options.keys };
  if (options.keysFile !== undefined) {
    Object.assign(keys, parseKeysFile(readOwnerOnlyFile(options.keysFile, '--keys-file'), options.keysFile));
  }
  if (Object.keys(keys).length === 0) {
    throw new UsageError("A proxy needs its clients' keys: --keys-file <path> (one KEY:PLAN a line, mode 600) or --key KEY:PLAN.", {
      hint: 'Hand each person or job a key of its own; the upstream key stays with the proxy.',
    });
  }
  return keys;
}

export async function runUpstream(options: UpstreamServeOptions, ctx: Context): Promise<void> {
  if (!isLoopbackHost(options.host)) {
    ctx.io.stderr.write(
      `Warning: listening on ${options.host}, not on loopback: anyone who can reach this machine can spend the upstream budget with the client keys it accepts.\n`,
    );
  }
  const apiKey = await upstreamKey(options, ctx);
  const keys = await clientKeys(options);
  const settings = ctx.settings();
  const root = cacheRoot(ctx.env);
  const quiet = ctx.globals.quiet;
  const line = (text: string): void => void ctx.io.stderr.write(`${text}\n`);

  let proxy;
  try {
    proxy = await createProxyServer({
      upstream: {
        baseUrl: options.upstream,
        apiKey,
        timeoutMs: settings.timeoutMs,
        ledgerPath: ledgerPath(root),
        budget: settings.budget,
        allowInsecure: ctx.globals.allowInsecure,
        warn: line,
        proxyEnv: ctx.env,
        ...(ctx.globals.verbose ? { log: line } : {}),
      },
      cacheDir: httpCacheDir(root),
      dir: options.dir ?? join(root, 'media'),
      keys,
      host: options.host,
      port: options.port,
      defaultTtlSeconds: Math.round(settings.cacheTtlMs / 1000),
      ...(quiet ? {} : { log: line }),
      warn: line,
    });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      throw new UsageError(`Port ${options.port} on ${options.host} is already in use.`, { hint: 'Pick another with --port, or --port 0 for any free port.' });
    throw err;
  }
  ctx.io.stdout.write(`Listening on ${proxy.url}\n`);
  if (!quiet) {
    const budget = settings.budget === null ? 'no budget' : `a budget of ${settings.budget} upstream requests a month`;
    line(`Proxy of ${new URL(options.upstream).origin} for ${Object.keys(keys).length} client key(s), ${budget}; status at ${proxy.url}/-/status.`);
  }
  await new Promise<void>((resolve) => {
    if (ctx.signal.aborted) resolve();
    else ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await proxy.close();
}
