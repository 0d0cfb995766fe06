/**
 * `exercises serve [dir]`: the catalogue server over a catalogue directory (default: the
 * shipped sample), for a team, a CI job or trying the CLI out. Runs until SIGINT/SIGTERM.
 * With --upstream it is the team proxy (serve-upstream.ts), whose log format, TLS files and
 * labelled keys are declared here too.
 */
import { Option } from 'commander';
import type { Context } from '../context.js';
import { DEFAULT_SERVE_HOST, DEFAULT_SERVE_PORT, SANDBOX_FREE_KEY, SANDBOX_PREMIUM_KEY } from '../defaults.js';
import { UsageError } from '../errors.js';
import type { RegisterCommand } from './shared/register.js';
import { addExamples, addNotes } from './shared/help.js';
import { collect, intArg } from './shared/flags.js';
import { runUpstream } from './serve-upstream.js';
import { readOwnerOnlyFile, parseKeysFile } from '../proxy/secret-files.js';
import { type ClientKey, parseClientKey, plansOf } from '../proxy/client-keys.js';
import { DEFAULT_LOG_FORMAT, LOG_FORMATS, type LogFormat } from '../proxy/access-log.js';
import { createCatalogueServer } from '../server/catalogue-server.js';
import { sampleCatalogueDir } from '../server/sandbox.js';
import { isLoopbackHost } from '../util/url-policy.js';

export interface ServeOptions {
  /** The catalogue directory; the shipped sample when undefined. */
  dir?: string;
  host: string;
  port: number;
  /** The keys accepted, their plans (and labels, for the proxy's log); the sandbox keys when undefined. */
  keys?: Record<string, ClientKey>;
  /** --upstream <url>: a pull-through caching proxy of that service (serve-upstream.ts). */
  upstream?: string;
  upstreamKeyFile?: string;
  keysFile?: string;
  /** With --upstream: the access log's format. */
  logFormat?: LogFormat;
  /** With --upstream: serve https with this certificate and key (PEM). */
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
    options.logFormat !== undefined && options.logFormat !== DEFAULT_LOG_FORMAT && '--log-format',
  ].find(Boolean);
  if (given) throw new UsageError(`${given} needs --upstream <url>.`);
}

export async function run(options: ServeOptions, ctx: Context): Promise<void> {
  checkProxyFlags(options);
  if (options.upstream !== undefined) {
    return runUpstream({ ...options, upstream: options.upstream }, ctx);
  }
  let keys = options.keys && plansOf(options.keys);
  if (options.keysFile !== undefined) {
    keys = { ...keys, ...plansOf(parseKeysFile(readOwnerOnlyFile(options.keysFile, '--keys-file'), options.keysFile)) };
  }
  const dir = options.dir ?? sampleCatalogueDir();

  if (!isLoopbackHost(options.host)) {
    ctx.io.stderr.write(
      `Warning: listening on ${options.host}, not on loopback: anyone who can reach this machine can use the catalogue with the keys it accepts.\n`,
    );
  }

  let server;
  try {
    server = await createCatalogueServer({
      dir,
      host: options.host,
      port: options.port,
      keys,
      log: ctx.globals.quiet ? undefined : (line) => ctx.io.stderr.write(`${line}\n`),
    });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      throw new UsageError(`Port ${options.port} on ${options.host} is already in use.`, { hint: 'Pick another with --port, or --port 0 for any free port.' });
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EACCES') {
      throw new UsageError(`Cannot listen on ${options.host}:${options.port} (${code}).`);
    }
    throw err;
  }

  ctx.io.stdout.write(`Listening on ${server.url}\n`);
  if (!keys && !ctx.globals.quiet) ctx.io.stderr.write(`Keys: ${SANDBOX_FREE_KEY} (free plan), ${SANDBOX_PREMIUM_KEY} (premium plan).\n`);

  // main() aborts ctx.signal on SIGINT/SIGTERM; closing then ends the command with exit 0.
  await new Promise<void>((resolve) => {
    if (ctx.signal.aborted) resolve();
    else ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await server.close();
}

export const register: RegisterCommand<ServeOptions> = (program, context, runF = run) => {
  const cmd = program
    .command('serve')
    .description('serve a catalogue directory over HTTP with the service interface (default: the sample catalogue)')
    .argument('[dir]', 'catalogue directory holding exercises.jsonl, images/ and videos/ (default: the shipped sample)')
    .option('--host <host>', 'address to listen on', DEFAULT_SERVE_HOST)
    .addOption(new Option('--port <port>', 'port to listen on; 0 picks a free one').default(DEFAULT_SERVE_PORT).argParser(intArg('--port', 0, 65535)))
    .addOption(
      new Option(
        '--key <key:plan>',
        `accept this API key with plan free or premium (repeatable; default: ${SANDBOX_FREE_KEY}:free and ${SANDBOX_PREMIUM_KEY}:premium)`,
      ).argParser(collect),
    )
    .option(
      '--keys-file <path>',
      'accept the keys in this file, one KEY:PLAN or KEY:PLAN:LABEL a line, # comments (readable by its owner only; with --upstream, reread on SIGHUP)',
    )
    .option('--upstream <url>', 'be a pull-through caching proxy of the service at this URL: misses go there, answers are shared (see docs/team.md)')
    .option(
      '--upstream-key-file <path>',
      'with --upstream: read the upstream key from this owner-only file when EXERCISES_UPSTREAM_KEY is unset (else the stored key)',
    )
    .addOption(
      new Option('--log-format <format>', 'with --upstream: the access log on stderr as text lines or one JSON object a line')
        .choices(LOG_FORMATS)
        .default(DEFAULT_LOG_FORMAT),
    )
    .option('--tls-cert <pem>', 'with --upstream: serve https with this certificate (chain), PEM; reread on SIGHUP')
    .option('--tls-key <pem>', "with --upstream: the certificate's private key, PEM, readable by its owner only; reread on SIGHUP");
  addNotes(
    cmd,
    'LOGS',
    "One line per request on stderr (method, path, status, milliseconds; never the key); with --upstream: the time, the client key's label (or its short hash), hit|miss|revalidated|coalesced|stale and the bytes sent, or JSON with --log-format json. With --upstream, SIGHUP rereads the keys file and the TLS files. Stop it with Ctrl-C.",
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
  cmd.action(
    async (
      dir: string | undefined,
      flags: {
        host: string;
        port: number;
        key?: string[];
        keysFile?: string;
        upstream?: string;
        upstreamKeyFile?: string;
        logFormat: LogFormat;
        tlsCert?: string;
        tlsKey?: string;
      },
    ) => {
      const ctx = context();
      const keys = flags.key && flags.key.length > 0 ? parseKeys(flags.key) : undefined;
      await runF(
        {
          ...(dir !== undefined ? { dir } : {}),
          host: flags.host,
          port: flags.port,
          ...(keys ? { keys } : {}),
          ...(flags.keysFile !== undefined ? { keysFile: flags.keysFile } : {}),
          ...(flags.upstream !== undefined ? { upstream: flags.upstream } : {}),
          ...(flags.upstreamKeyFile !== undefined ? { upstreamKeyFile: flags.upstreamKeyFile } : {}),
          logFormat: flags.logFormat,
          ...(flags.tlsCert !== undefined ? { tlsCert: flags.tlsCert } : {}),
          ...(flags.tlsKey !== undefined ? { tlsKey: flags.tlsKey } : {}),
        },
        ctx,
      );
    },
  );
};
