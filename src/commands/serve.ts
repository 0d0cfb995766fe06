/**
 * `exercises serve [dir]`: the catalogue server over a catalogue directory (default: the
 * shipped sample), for a team, a CI job or trying the CLI out. With --upstream <url> it is the
 * pull-through caching proxy (src/proxy): this file gathers what that needs, the upstream key
 * (EXERCISES_UPSTREAM_KEY, an owner-only --upstream-key-file, or the stored key — never a flag
 * value), the clients' keys, the TLS files, the shared cache and ledger of this user and the
 * budget, and on SIGHUP (or a change of the keys file) reads the keys file and the TLS files
 * again; SIGUSR1 reopens --access-log. Every line it logs starts with the time. Runs until SIGINT/SIGTERM.
 */
import { once } from 'node:events';
import { join } from 'node:path';
import { Option } from 'commander';
import type { Context } from '../context.js';
import { DEFAULT_SERVE_HOST, DEFAULT_SERVE_PORT, SANDBOX_FREE_KEY, SANDBOX_PREMIUM_KEY } from '../defaults.js';
import { AuthError, UsageError } from '../errors.js';
import type { RegisterCommand } from './shared/register.js';
import { addExamples, addNotes } from './shared/help.js';
import { collect, intArg } from './shared/flags.js';
import { type KeysFileChecks, type TlsFiles, readOwnerOnlyFile, parseKeyFile, parseKeysFile, readTlsFiles } from '../proxy/secret-files.js';
import { type ClientKey, parseClientKey, plansOf } from '../proxy/client-keys.js';
import { DEFAULT_LOG_FORMAT, LOG_FORMATS, type LogFormat, batchedLines, isoNow } from '../proxy/access-log.js';
import { LogFile } from '../proxy/log-file.js';
import { type ProxyServer, createProxyServer } from '../proxy/proxy-server.js';
import { readStoredConfig } from '../config/parsers.js';
import { type Settings, setting } from '../config/settings.js';
import { shownUrl } from '../proxy/shared-state.js';
import { cacheRoot, httpCacheDir, ledgerPath } from '../cache/store-files.js';
import { ANY_ADDRESS, createCatalogueServer } from '../server/catalogue-server.js';
import { KEYS_FILE_SETTLE_MS } from '../config/time-limits.js';
import { watchFile } from '../util/file-watch.js';
import { type ServeKeysOptions, registerKeys, run as runKeys } from './serve-keys.js';
import { sampleCatalogueDir } from '../server/sandbox.js';
import { isLoopbackHost } from '../util/url-policy.js';
import { plural } from '../util/text.js';

export interface ServeOptions {
  /** The catalogue directory (with --upstream: where media are kept); the shipped sample when undefined. */
  dir?: string;
  host: string;
  port: number;
  /** From --key: the keys accepted, their plans (and labels, for the proxy's log); the sandbox keys when none is given. */
  keys?: Record<string, ClientKey>;
  /** --upstream <url>: a pull-through caching proxy of that service. */
  upstream?: string;
  upstreamKeyFile?: string;
  keysFile?: string;
  /** With --upstream: the access log's format. */
  logFormat?: LogFormat;
  /** With --upstream: append the access log to this file (reopened on SIGUSR1) rather than stderr. */
  accessLog?: string;
  /** With --upstream: serve https with this certificate and key (PEM), both or neither. */
  tlsCert?: string;
  tlsKey?: string;
}

/** `team-key:premium` → { 'team-key': { plan: 'premium' } }; `KEY:PLAN:LABEL` as in a keys file (client-keys.ts). */
export function parseKeys(pairs: readonly string[]): Record<string, ClientKey> {
  const keys: Record<string, ClientKey> = {};
  for (const pair of pairs) {
    const parsed = parseClientKey(pair);
    if ('problem' in parsed) {
      throw new UsageError(`--key must be KEY:PLAN or KEY:PLAN:LABEL (${parsed.problem}).`, {
        hint: 'For example: --key team-key:premium --key guest-key:free:guest',
      });
    }
    keys[parsed.key] = parsed.client;
  }
  return keys;
}

/** The proxy's own flags, refused without --upstream (the catalogue server has no upstream key to refuse, and logs as it always did). */
function checkProxyFlags(options: ServeOptions): void {
  if ((options.tlsCert === undefined) !== (options.tlsKey === undefined)) throw new UsageError('--tls-cert and --tls-key go together.');
  if (options.upstream !== undefined) return;
  const given = [
    options.upstreamKeyFile !== undefined && '--upstream-key-file',
    options.tlsCert !== undefined && '--tls-cert',
    options.accessLog !== undefined && '--access-log',
    options.logFormat !== undefined && options.logFormat !== DEFAULT_LOG_FORMAT && '--log-format',
  ].find(Boolean);
  if (given) throw new UsageError(`${given} needs --upstream <url>.`);
}

/** --key and --keys-file together (read at start, and on each reload of the proxy); undefined when neither is given. */
function givenKeys(options: ServeOptions, checks: KeysFileChecks = {}): Record<string, ClientKey> | undefined {
  if (options.keysFile === undefined) return options.keys;
  return { ...options.keys, ...parseKeysFile(readOwnerOnlyFile(options.keysFile, '--keys-file'), options.keysFile, checks) };
}

/** A server's log line on stderr, led by the time (ISO 8601 UTC). */
function logLine(ctx: Context): (text: string) => void {
  return (text) => void ctx.io.stderr.write(`${isoNow()} ${text}\n`);
}

function warnIfReachable(line: (text: string) => void, host: string, what: string): void {
  if (!isLoopbackHost(host)) line(`Warning: listening on ${host}, not on loopback: anyone who can reach this machine can ${what}.`);
}

/** `Listening on <url>` on stdout; for every interface, the URL names loopback and the line says so. */
function sayListening(ctx: Context, url: string, host: string): void {
  ctx.io.stdout.write(`Listening on ${url}${ANY_ADDRESS.includes(host) ? ` (all interfaces, ${host})` : ''}\n`);
}

/** A listening server's start, with a port in use (and for the catalogue server, an address it cannot have) as a usage error. */
async function listening<T>(options: ServeOptions, start: Promise<T>, unavailable: readonly string[]): Promise<T> {
  try {
    return await start;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      throw new UsageError(`Port ${options.port} on ${options.host} is already in use.`, { hint: 'Pick another with --port, or --port 0 for any free port.' });
    if (code !== undefined && unavailable.includes(code)) throw new UsageError(`Cannot listen on ${options.host}:${options.port} (${code}).`);
    throw err;
  }
}

/** main() aborts ctx.signal on SIGINT/SIGTERM; the server is then closed and the command ends with exit 0. */
async function untilStopped(ctx: Context): Promise<void> {
  if (!ctx.signal.aborted) await once(ctx.signal, 'abort');
}

/** Serves, or with the options of `serve keys …` edits the keys file (serve-keys.ts). */
export async function run(options: ServeOptions | ServeKeysOptions, ctx: Context): Promise<void> {
  if ('action' in options) return runKeys(options, ctx);
  checkProxyFlags(options);
  if (options.upstream !== undefined) return runProxy(options, options.upstream, ctx);
  const given = givenKeys(options);
  const keys = given && plansOf(given);
  const line = logLine(ctx);
  warnIfReachable(line, options.host, 'use the catalogue with the keys it accepts');
  const log = ctx.globals.quiet ? undefined : line;
  const { host, port } = options;
  const dir = options.dir ?? sampleCatalogueDir();
  const server = await listening(options, createCatalogueServer({ dir, host, port, keys, log }), ['EADDRNOTAVAIL', 'ENOTFOUND', 'EACCES']);
  sayListening(ctx, server.url, host);
  if (!keys && !ctx.globals.quiet) line(`Keys: ${SANDBOX_FREE_KEY} (free plan), ${SANDBOX_PREMIUM_KEY} (premium plan).`);
  await untilStopped(ctx);
  await server.close();
}

/** The upstream key and where it came from (named when the upstream refuses it, never the key). */
function upstreamKey(options: ServeOptions, ctx: Context): { key: string; source: string } {
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
    { hint: 'The upstream key is never taken from a flag value: flags show in `ps` and shell history.' },
  );
}

/**
 * The proxy's client keys and TLS files, read at start and on each reload; refused: no client
 * key, the upstream key among them, a certificate out of its dates. `warn` hears of a label given
 * twice and of a certificate near its end.
 */
function proxyFiles(options: ServeOptions, upstreamKey: string, warn: (line: string) => void): { keys: Record<string, ClientKey>; tls?: TlsFiles } {
  const keys = givenKeys(options, { upstreamKey, warn }) ?? {};
  if (Object.keys(keys).length === 0) {
    throw new UsageError("A proxy needs its clients' keys: --keys-file <path> (one KEY:PLAN or KEY:PLAN:LABEL a line, mode 600) or --key KEY:PLAN.", {
      hint: 'Hand each person or job a key of its own (`exercises serve keys add`); the upstream key stays with the proxy.',
    });
  }
  if (Object.hasOwn(keys, upstreamKey)) throw new UsageError('--key gives the upstream key as a client key; a client needs a key of its own.');
  const { tlsCert, tlsKey } = options;
  return { keys, ...(tlsCert !== undefined && tlsKey !== undefined ? { tls: readTlsFiles(tlsCert, tlsKey, warn) } : {}) };
}

/**
 * SIGHUP or a change of the keys file: the keys file and the TLS files read again and put in
 * force together, or, when any of them is refused, none: the proxy keeps what it had and says why on its log.
 */
function reload(options: ServeOptions, upstreamKey: string, proxy: ProxyServer, line: (text: string) => void): void {
  let files;
  try {
    files = proxyFiles(options, upstreamKey, line);
  } catch (err) {
    return line(`proxy: reload refused, the keys and certificate in use stay: ${(err as Error).message}`);
  }
  proxy.setKeys(files.keys);
  if (files.tls) proxy.setTls(files.tls);
  line(`proxy: reloaded ${plural(Object.keys(files.keys).length, 'client key')}${files.tls ? ' and the TLS certificate' : ''}.`);
}

/** The shared state's URL in force (--shared-state, EXERCISES_SHARED_STATE or stored), checked and named by where it came from; undefined for none. */
function sharedStateUrl(settings: Settings): string | undefined {
  const spec = setting('shared-state');
  const value = settings.sharedState;
  return value === undefined ? undefined : (spec.parser!(value, settings.from.sharedState.origin ?? 'The stored shared-state', spec) as string);
}

async function runProxy(options: ServeOptions, upstream: string, ctx: Context): Promise<void> {
  const line = logLine(ctx);
  warnIfReachable(line, options.host, 'spend the upstream budget with the client keys it accepts');
  const { key: apiKey, source: keySource } = upstreamKey(options, ctx);
  const { keys, tls } = proxyFiles(options, apiKey, line);
  const settings = ctx.settings();
  const sharedState = sharedStateUrl(settings);
  const quiet = ctx.globals.quiet;
  const root = cacheRoot(ctx.env);
  const logFile = options.accessLog === undefined ? undefined : new LogFile(options.accessLog, line);
  const accessLog = batchedLines(logFile ?? ctx.io.stderr);
  const proxy = await listening(
    options,
    createProxyServer({
      upstream: {
        baseUrl: upstream,
        apiKey,
        keySource,
        ledgerPath: ledgerPath(root),
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
      settings,
      ...(quiet ? {} : { log: accessLog }),
      ...(options.logFormat ? { logFormat: options.logFormat } : {}),
      logProbes: ctx.globals.logProbes,
      warn: line,
      sharedState,
    }),
    [],
  ).catch((err: unknown) => {
    logFile?.close();
    throw err;
  });
  // Listened for before the proxy says it listens: a signal sent on that word finds the handlers in place.
  const reloadNow = (): void => reload(options, apiKey, proxy, line);
  const stops = [
    ctx.onSignal?.('SIGHUP', reloadNow),
    // Listened for even without a file: Node's default for SIGUSR1 opens a debugger on the process holding the upstream key.
    ctx.onSignal?.('SIGUSR1', () => {
      if (!logFile) return line('proxy: SIGUSR1 ignored: the access log goes to stderr (--access-log <file> writes it to a file SIGUSR1 reopens).');
      accessLog.flush();
      if (logFile.reopen()) line(`proxy: reopened the access log ${logFile.path}.`);
    }),
    options.keysFile === undefined
      ? undefined
      : watchFile(options.keysFile, KEYS_FILE_SETTLE_MS, reloadNow, (reason) =>
          line(`proxy: the keys file cannot be watched (${reason}); send SIGHUP after changing it.`),
        ),
  ];
  sayListening(ctx, proxy.url, options.host);
  if (!quiet) {
    const budget = settings.budget === undefined ? 'no budget' : `a budget of ${settings.budget} upstream requests a month`;
    const shared = sharedState === undefined ? '' : `, shared with other replicas through ${shownUrl(sharedState)}`;
    line(`Proxy of ${new URL(upstream).origin} for ${Object.keys(keys).length} client key(s), ${budget}${shared}; status at ${proxy.url}/-/status.`);
  }
  await untilStopped(ctx).finally(() => stops.forEach((stop) => stop?.()));
  await proxy.close();
  accessLog.flush();
  logFile?.close();
}
export const register: RegisterCommand<ServeOptions | ServeKeysOptions> = (program, context, runF = run) => {
  const cmd = program
    .command('serve')
    .description('serve a catalogue directory over HTTP with the service interface (default: the sample catalogue)')
    .argument('[dir]', 'catalogue directory holding exercises.jsonl, images/ and videos/ (default: the shipped sample)')
    .option('--host <host>', 'address to listen on', DEFAULT_SERVE_HOST)
    .option('--port <port>', 'port to listen on; 0 picks a free one', intArg('--port', 0, 65535), DEFAULT_SERVE_PORT)
    .option(
      '--key <key:plan>',
      `accept this API key with plan free or premium (repeatable; default: ${SANDBOX_FREE_KEY}:free and ${SANDBOX_PREMIUM_KEY}:premium)`,
      collect,
    )
    .option(
      '--keys-file <path>',
      'accept the keys in this file, one KEY:PLAN or KEY:PLAN:LABEL a line, # comments (readable by its owner only; with --upstream, reread when it changes and on SIGHUP)',
    )
    .option('--upstream <url>', 'be a pull-through caching proxy of the service at this URL: misses go there, answers are shared (see docs/team.md)')
    .option(
      '--upstream-key-file <path>',
      'with --upstream: read the upstream key from this owner-only file when EXERCISES_UPSTREAM_KEY is unset (else the stored key)',
    )
    .addOption(
      new Option('--log-format <format>', 'with --upstream: the access log as text lines or one JSON object a line')
        .choices(LOG_FORMATS)
        .default(DEFAULT_LOG_FORMAT),
    )
    .option('--access-log <file>', 'with --upstream: append the access log to this file (created mode 640), not stderr; reopened on SIGUSR1')
    .option('--tls-cert <pem>', 'with --upstream: serve https with this certificate (chain), PEM; reread on SIGHUP')
    .option('--tls-key <pem>', "with --upstream: the certificate's private key, PEM, readable by its owner only; reread on SIGHUP");
  addNotes(
    cmd,
    'LOGS',
    "One line per request on stderr, led by the time (method, path, status, milliseconds; never the key); with --upstream: the client key's label (or its short hash), hit|miss|revalidated|coalesced|stale and the bytes sent, or JSON with --log-format json; --access-log <file> writes them to a file that SIGUSR1 reopens (for logrotate); /-/status and /-/metrics are left out unless --log-probes (/-/ping always is). With --upstream, SIGHUP (or a change of the keys file) rereads the keys file and the TLS files. Stop it with Ctrl-C.",
  );
  addExamples(
    cmd,
    [
      `exercises serve                      # the sample catalogue on http://${DEFAULT_SERVE_HOST}:${DEFAULT_SERVE_PORT}`,
      'exercises serve ./mirror --port 0    # a catalogue directory on any free port',
      'exercises serve ./mirror --key team-key:premium --key guest-key:free',
      'exercises serve --host 0.0.0.0       # reachable from other machines (prints a warning)',
      'exercises serve --upstream https://api.wrkout.xyz --keys-file team-keys --budget 100 ./mirror   # key from EXERCISES_UPSTREAM_KEY',
      'exercises serve --upstream https://api.wrkout.xyz --keys-file team-keys --host 0.0.0.0 --tls-cert proxy.crt --tls-key proxy.key',
    ],
    [
      'exercises serve ./mirror --port 9000 2>> access.log &',
      `exercises --base-url http://${DEFAULT_SERVE_HOST}:9000 --api-key ${SANDBOX_PREMIUM_KEY} ids --all --format jsonl | jq -r .id`,
    ],
  );
  registerKeys(cmd, context, runF);
  // The server is what `serve` runs; `keys` is listed as the command beside it.
  cmd.usage('[options] [dir]');
  cmd.action(async (dir: string | undefined, flags: Omit<ServeOptions, 'dir' | 'keys'> & { key?: string[] }) => {
    const ctx = context();
    const { key, ...rest } = flags;
    await runF({ ...(dir !== undefined ? { dir } : {}), ...rest, ...(key && key.length > 0 ? { keys: parseKeys(key) } : {}) }, ctx);
  });
};
