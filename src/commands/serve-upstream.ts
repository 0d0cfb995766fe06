/**
 * `serve --upstream <url> [dir]`: the pull-through caching proxy (src/proxy). This file
 * only gathers what it needs: the upstream key (EXERCISES_UPSTREAM_KEY, an owner-only
 * --upstream-key-file, or the stored key — never a flag value), the clients' keys (--key,
 * an owner-only --keys-file), the TLS certificate and key, the shared cache and ledger of this
 * user, the budget in force; and on SIGHUP it reads the keys file and the TLS files again.
 */
import type { Context } from '../context.js';
import { AuthError, UsageError } from '../errors.js';
import { readOwnerOnlyFile, parseKeyFile, parseKeysFile } from '../proxy/secret-files.js';
import { readStoredConfig } from '../config/parsers.js';
import { isLoopbackHost } from '../util/url-policy.js';
import { join } from 'node:path';
import { type ProxyServer, createProxyServer } from '../proxy/proxy-server.js';
import type { ClientKey, ClientKeys } from '../proxy/client-keys.js';
import type { LogFormat } from '../proxy/access-log.js';
import { type TlsFiles, readTlsFiles } from '../proxy/tls-files.js';
import { cacheRoot, httpCacheDir, ledgerPath } from '../cache/store-files.js';
import { plural } from '../util/text.js';
import { batchedLines } from '../proxy/batched-lines.js';
import { holdYoungGeneration } from '../proxy/young-generation.js';

export interface UpstreamServeOptions {
  upstream: string;
  upstreamKeyFile?: string;
  keysFile?: string;
  /** From --key. */
  keys?: Record<string, ClientKey>;
  dir?: string;
  host: string;
  port: number;
  logFormat?: LogFormat;
  /** --tls-cert and --tls-key, both or neither. */
  tlsCert?: string;
  tlsKey?: string;
}

/** The upstream key and where it came from (named when the upstream refuses it, never the key). */
async function upstreamKey(options: UpstreamServeOptions, ctx: Context): Promise<{ key: string; source: string }> {
  const fromEnv = ctx.env.EXERCISES_UPSTREAM_KEY?.trim();
  if (fromEnv) return { key: fromEnv, source: 'EXERCISES_UPSTREAM_KEY' };
  if (options.upstreamKeyFile !== undefined) {
    const key = parseKeyFile(readOwnerOnlyFile(options.upstreamKeyFile, '--upstream-key-file'), options.upstreamKeyFile);
    return { key, source: `--upstream-key-file ${options.upstreamKeyFile}` };
  }
  const stored = readStoredConfig(ctx.env)['api-key'];
  if (typeof stored === 'string' && stored.trim() !== '') return { key: stored.trim(), source: 'the key stored with `exercises auth login`' };
  throw new AuthError(
    'No upstream key for the proxy: set EXERCISES_UPSTREAM_KEY, pass --upstream-key-file <path> (mode 600), or store one with `exercises auth login`.',
    {
      hint: 'The upstream key is never taken from a flag value: flags show in `ps` and shell history.',
    },
  );
}

/** --key and --keys-file together; read at start and on each reload. */
function clientKeys(options: UpstreamServeOptions): ClientKeys {
  const keys: Record<string, ClientKey> = { ...options.keys };
  if (options.keysFile !== undefined) {
    Object.assign(keys, parseKeysFile(readOwnerOnlyFile(options.keysFile, '--keys-file'), options.keysFile));
  }
  if (Object.keys(keys).length === 0) {
    throw new UsageError("A proxy needs its clients' keys: --keys-file <path> (one KEY:PLAN or KEY:PLAN:LABEL a line, mode 600) or --key KEY:PLAN.", {
      hint: 'Hand each person or job a key of its own; the upstream key stays with the proxy.',
    });
  }
  return keys;
}

function tlsFiles(options: UpstreamServeOptions): TlsFiles | undefined {
  return options.tlsCert !== undefined && options.tlsKey !== undefined ? readTlsFiles(options.tlsCert, options.tlsKey) : undefined;
}

/**
 * SIGHUP: the keys file and the TLS files read again and put in force together, or, when any
 * of them is refused, none: the proxy keeps what it had and says why on its log.
 */
function reload(options: UpstreamServeOptions, proxy: ProxyServer, line: (text: string) => void): void {
  let keys: ClientKeys;
  let tls: TlsFiles | undefined;
  try {
    keys = clientKeys(options);
    tls = tlsFiles(options);
  } catch (err) {
    line(`proxy: reload refused, the keys and certificate in use stay: ${(err as Error).message}`);
    return;
  }
  proxy.setKeys(keys);
  if (tls) proxy.setTls(tls);
  line(`proxy: reloaded ${plural(Object.keys(keys).length, 'client key')}${tls ? ' and the TLS certificate' : ''}.`);
}

export async function runUpstream(options: UpstreamServeOptions, ctx: Context): Promise<void> {
  if (!isLoopbackHost(options.host)) {
    ctx.io.stderr.write(
      `Warning: listening on ${options.host}, not on loopback: anyone who can reach this machine can spend the upstream budget with the client keys it accepts.\n`,
    );
  }
  const { key: apiKey, source: keySource } = await upstreamKey(options, ctx);
  const keys = clientKeys(options);
  const tls = tlsFiles(options);
  const settings = ctx.settings();
  const root = cacheRoot(ctx.env);
  const quiet = ctx.globals.quiet;
  const line = (text: string): void => void ctx.io.stderr.write(`${text}\n`);
  const accessLog = batchedLines(ctx.io.stderr);
  ctx.onExit(holdYoungGeneration());

  let proxy;
  try {
    proxy = await createProxyServer({
      upstream: {
        baseUrl: options.upstream,
        apiKey,
        keySource,
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
      ...(tls ? { tls } : {}),
      host: options.host,
      port: options.port,
      defaultTtlSeconds: Math.round(settings.cacheTtlMs / 1000),
      ...(quiet ? {} : { log: accessLog }),
      ...(options.logFormat ? { logFormat: options.logFormat } : {}),
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
  const started = proxy;
  const stopReloading = ctx.onHangup?.(() => reload(options, started, line));
  try {
    await new Promise<void>((resolve) => {
      if (ctx.signal.aborted) resolve();
      else ctx.signal.addEventListener('abort', () => resolve(), { once: true });
    });
  } finally {
    stopReloading?.();
  }
  await proxy.close();
  accessLog.flush();
}
