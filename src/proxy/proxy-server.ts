/**
 * `serve --upstream`: a pull-through caching proxy of the service for a team (as verdaccio is
 * for npm). Clients authenticate with keys of the proxy's own, each with a plan; answers come
 * from a catalogue directory when it holds them, else from the shared store of upstream
 * answers (json-pull.ts) or the media pulled into the directory (media-pull.ts); every
 * upstream request is counted in the ledger and held to the budget (upstream.ts).
 *
 * One access log line per request (access-log.ts, text or JSON): the time, the client's label or
 * its key's short hash, method, path (query values that are keys masked), status (`-` when the
 * client left before its whole answer), how the answer was had
 * (hit|miss|revalidated|coalesced|stale), milliseconds, bytes. `GET /-/status` (any client key)
 * gives this month's upstream requests, the budget and the proxy's figures, per client too.
 * The clients' keys and the TLS certificate can be replaced while it runs (setKeys, setTls:
 * `serve` does it on SIGHUP); requests already past the key check finish as they began.
 * Every answer carries the month's upstream count as X-RateLimit-* headers (answer-writer.ts).
 * With shared state (a Redis, shared-state.ts) replicas share one ledger, one fill and the JSON
 * answers; `GET /-/ping` (no key, no log line) says whether this replica can serve misses.
 */
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { escapeUnsafe } from '../util/text.js';
import { CATALOGUE_FILE } from '../catalogue/catalogue-dir.js';
import { HttpError, firstValue, notFound, sendFailure, sendJson } from '../server/http-error.js';
import { checkRequest, clientOf, parseTarget, route } from '../server/router.js';
import { answerWriter } from './answer-writer.js';
import { AnswerStore, answerKey } from './answer-store.js';
import { JsonPull } from './json-pull.js';
import { MediaPull } from './media-pull.js';
import { removeStaleParts } from './media-parts.js';
import { withoutKeys } from './key-scrub.js';
import { Upstream, type UpstreamOptions, type UpstreamSettings } from './upstream.js';
import type { LedgerUsage } from '../cache/ledger.js';
import type { Settings } from '../config/settings.js';
import { listenOn } from '../server/catalogue-server.js';
import { followCatalogue } from '../server/catalogue-handler.js';
import { type ClientKeys, clientName, plansOf } from './client-keys.js';
import type { TlsFiles } from './secret-files.js';
import { type AccessRecord, DEFAULT_LOG_FORMAT, type LogFormat, formatAccess, isoNow, maskedTarget } from './access-log.js';
import { ProxyStats, createProxyMetrics, mayReadMetrics } from './metrics.js';
import { SharedState, SharedStateDownError } from './shared-state.js';
import { SharedLedger } from './shared-ledger.js';
import { SharedFill } from './shared-fill.js';
import { sharedStateDownAnswer } from './answers.js';

export interface ProxyServerOptions {
  /** The way upstream, but for the settings. */
  upstream: Omit<UpstreamOptions, 'settings' | 'signal'>;
  /** The run's settings it follows: the upstream's (timeout, budget, allow-insecure) and cache-ttl. */
  settings: UpstreamSettings & Pick<Settings, 'cacheTtl'>;
  /** The store of upstream answers (the CLI's, cache/store-files.ts httpCacheDir, by default). */
  cacheDir: string;
  /** Media are pulled into it; when it holds exercises.jsonl, its records answer first. */
  dir: string;
  /** The clients' keys, their plans and labels. */
  keys: ClientKeys;
  /** Serve https with this certificate (node:https); plain http without. */
  tls?: TlsFiles;
  host?: string;
  port?: number;
  /** The access log, one line per request. Never a key. */
  log?: (line: string) => void;
  /** How the log lines are written (access-log.ts); text by default. */
  logFormat?: LogFormat;
  /** Log and count /-/status and /-/metrics too; left out by default (as /-/ping always is). */
  logProbes?: boolean;
  /** Store and ledger problems. */
  warn?: (line: string) => void;
  /** How long answers in flight may take to finish once close() is called; default 2 s. */
  graceMs?: number;
  /** A redis:// or rediss:// URL: the ledger, fills and JSON answers shared with the other replicas there. */
  sharedState?: string | undefined;
}

export interface ProxyServer {
  url: string;
  port: number;
  stats: ProxyStats;
  /** From now on these keys are accepted (and only these): a removed key gets 401 at its next request. */
  setKeys(keys: ClientKeys): void;
  /** From now on new connections get this certificate (https only; a no-op for plain http). */
  setTls(tls: TlsFiles): void;
  /** Stops taking requests, lets those in flight finish (up to graceMs), then ends the rest. */
  close(): Promise<void>;
}

/** The logged forms of targets held at most (then all are let go), and the longest target held: a few hundred KB at worst. */
const LOGGED_PATHS_HELD = 1024;
const MAX_LOGGED_PATH_HELD = 256;
/** Under the 3 s main() (cli.ts) allows work after SIGINT/SIGTERM before it exits anyway. */
const DEFAULT_GRACE_MS = 2_000;
/** After the grace period, the most the aborted work is given to unwind before close() returns anyway. */
const SETTLE_MS = 200;

/** Status reads and scrapes (a monitor's, Prometheus'): neither logged nor counted unless asked for (logProbes). */
const PROBES = /^\/-\/(status|metrics)(\?|$)/;

/** Who asked (the key's label, else its short hash: client-keys.ts; `-` until the key is checked) and how it was answered. */
type Seen = Pick<AccessRecord, 'client' | 'outcome'>;

export async function createProxyServer(options: ProxyServerOptions): Promise<ProxyServer> {
  const shared = options.sharedState === undefined ? undefined : await SharedState.open(options.sharedState, options.warn);
  // A proxy that does not start (its port taken…) lets go of its Redis link, which would reconnect for ever.
  return startProxy(options, shared).catch((err: unknown) => {
    shared?.close();
    throw err;
  });
}

async function startProxy(options: ProxyServerOptions, shared: SharedState | undefined): Promise<ProxyServer> {
  const shutdown = new AbortController();
  const ledger = shared && { ledger: new SharedLedger(shared) };
  const upstream = new Upstream({ ...options.upstream, ...ledger, settings: options.settings, signal: shutdown.signal });
  await upstream.usage().catch(() => undefined);
  const store = new AnswerStore(options.cacheDir, options.warn);
  const stats = new ProxyStats();
  const metrics = await createProxyMetrics(stats, () => upstream.usage(), upstream.budget !== null, shared && (() => shared.up));
  const fill = shared && new SharedFill(shared, shutdown.signal);
  const json = new JsonPull({ upstream, store, settings: options.settings, observe: metrics.filled, warn: options.warn, shared: fill });
  const media = new MediaPull({ root: options.dir, upstream, signal: shutdown.signal, observe: metrics.filled, log: options.warn, shared: fill });
  await removeStaleParts(options.dir, options.warn);
  const catalogue = existsSync(join(options.dir, CATALOGUE_FILE)) ? followCatalogue(options.dir) : undefined;
  catalogue?.(); // a broken catalogue fails the start
  const upstreamKey = options.upstream.apiKey;
  // Each client's plan and name by its key, the name made once per key rather than per request;
  // and the plans alone, for the catalogue server's routes (a local catalogue). Both replaced on reload.
  const clientsOf = (keys: ClientKeys) => Object.fromEntries(Object.entries(keys).map(([key, c]) => [key, { plan: c.plan, name: clientName(key, c) }]));
  let [clients, plans] = [clientsOf(options.keys), plansOf(options.keys)];
  const isAnyKey = (value: string): boolean => value !== '' && (value === upstreamKey || Object.hasOwn(clients, value));
  // Each target as the log shows it (keys masked and redacted, unsafe characters escaped), made once: hot targets repeat.
  const loggedPaths = new Map<string, string>();
  const loggedPath = (target: string): string => {
    let path = loggedPaths.get(target);
    if (path === undefined) {
      path = escapeUnsafe(upstream.redact(maskedTarget(target, isAnyKey)).slice(0, 500));
      if (loggedPaths.size >= LOGGED_PATHS_HELD) loggedPaths.clear();
      if (target.length <= MAX_LOGGED_PATH_HELD) loggedPaths.set(target, path);
    }
    return path;
  };

  const send = answerWriter(upstream);

  /**
   * Answers `req`: at once for what needs no I/O (a hot answer, a refusal: thrown), else the
   * promise of the answer. A hit thus costs no promise and no turn of the microtask queue.
   * `seen` gets who asked (the label or hash, once the key is checked) and how it was answered.
   */
  function answerRequest(req: IncomingMessage, res: ServerResponse, seen: Seen): Promise<void> | undefined {
    // A fragment is the client's own business (browsers never send one): it never reaches a cache key nor the upstream.
    const rawUrl = (req.url ?? '/').split('#', 1)[0]!;
    checkRequest(req, rawUrl);
    const key = firstValue(req.headers['x-api-key']);
    // Metrics: for a client key, or from this machine without one (a Prometheus agent on the proxy's host).
    if (/^\/-\/metrics(\?|$)/.test(rawUrl) && mayReadMetrics(req.socket.remoteAddress, key !== undefined && Object.hasOwn(clients, key))) {
      return metrics.text().then((text) => {
        res.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store', 'content-length': String(Buffer.byteLength(text)) });
        res.end(req.method === 'HEAD' ? undefined : text);
      });
    }
    const { plan, name } = clientOf(key, clients);
    seen.client = name;

    const { segments, path, query: sentQuery } = parseTarget(rawUrl);
    if (path === '/-/status') {
      // With Redis down, the count this replica saw last; 503 when it has seen none.
      return upstream.usage().then(
        (usage) => status(res, usage),
        (err: unknown) => {
          if (upstream.knownUsage) return status(res, upstream.knownUsage);
          if (err instanceof SharedStateDownError) return send(req, res, sharedStateDownAnswer(), plan);
          throw err;
        },
      );
    }
    seen.outcome = 'hit';
    // A key written into the URL (the client's own, another's, the upstream's) never reaches a cache key, a stored entry or the upstream:
    // a key parameter is dropped; a key as a path segment names nothing the service has.
    if (segments.some(isAnyKey)) throw notFound('No such path.');
    const query = withoutKeys(sentQuery, isAnyKey);
    const [first, second, third, fourth] = segments;

    // A dot segment would be resolved away in the upstream URL (`/exercise/..` is `/`): it names no exercise.
    if (first === 'exercise' && segments.length === 2 && second !== undefined && second !== '' && second !== '.' && second !== '..') {
      const held = catalogue?.();
      const local = held && (second === 'query' || second === 'exerciseIds' || held.indexById.has(second) || held.byLowerName.has(second.toLowerCase()));
      if (local) return route(req, res, { catalogue: () => held, keys: plans, cursors: true, etags: true });
      const storeKey = answerKey(upstream.baseUrl, upstream.keyHash, path, query);
      const hit = json.hit(storeKey);
      if (hit) return void send(req, res, hit, plan);
      return json.answer(query ? `${path}?${query}` : path, storeKey).then((answer) => {
        seen.outcome = answer.outcome;
        send(req, res, answer, plan);
      });
    }

    if ((first === 'images' || first === 'videos') && segments.length === 4 && third === 'premium' && second && fourth) {
      if (plan !== 'premium') throw new HttpError(403, 'forbidden', 'Premium images and videos need a premium plan.');
      return media.serve(req, res, { folder: first, id: second, fileName: fourth, target: path }).then((result) => {
        if (typeof result === 'string') seen.outcome = result;
        else send(req, res, result, plan);
      });
    }
    throw notFound('No such path.');
  }

  const status = (res: ServerResponse, usage: LedgerUsage): void =>
    sendJson(res, 200, { ...stats.report(usage), ...(shared ? { sharedState: { url: shared.shown, up: shared.up } } : {}) });
  /** `GET /-/ping`: 200 when misses can be served, 503 while the shared state is down. */
  const ping = (res: ServerResponse): void => {
    const answer =
      shared && !shared.up ? sharedStateDownAnswer() : { status: 200, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: Buffer.from('ok\n') };
    res.writeHead(answer.status, { ...answer.headers, 'cache-control': 'no-store', 'content-length': String(answer.body.length) });
    res.end(answer.body);
  };

  const inflight = new Set<Promise<void>>();
  const logFormat = options.logFormat ?? DEFAULT_LOG_FORMAT;
  /** A request that could not be answered: its error answer, or the connection cut when the answer had begun. */
  const failed = (res: ServerResponse, err: unknown): void => {
    // Work cut by shutdown (past the grace period) is expected, not a failure to report.
    if (!(err instanceof HttpError) && !shutdown.signal.aborted) options.warn?.(`proxy: ${upstream.redact((err as Error).message ?? String(err))}`);
    sendFailure(res, err, 'The proxy failed to answer this request.');
  };
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    if (/^\/-\/ping(\?|$)/.test(req.url ?? '') && (req.method === 'GET' || req.method === 'HEAD')) return ping(res);
    const started = performance.now();
    const counted = options.logProbes || !PROBES.test(req.url ?? '/');
    // Bytes put on this connection while answering (headers included): writeHead's headers are not readable back.
    const writtenBefore = req.socket.bytesWritten;
    const seen: Seen = { client: '-', outcome: undefined };
    res.on('close', () => {
      if (!counted) return;
      // A client that left before the whole answer was handed over got nothing: status `-`, no hit counted.
      const delivered = res.writableFinished;
      const record: AccessRecord = {
        time: isoNow(),
        client: seen.client,
        method: req.method ?? '-',
        path: loggedPath(req.url ?? '/'),
        status: delivered ? res.statusCode : undefined,
        outcome: delivered && res.statusCode < 400 ? seen.outcome : undefined,
        ms: performance.now() - started,
        bytes: Math.max(0, req.socket.bytesWritten - writtenBefore),
      };
      stats.count(record);
      options.log?.(formatAccess(record, logFormat));
    });
    let work: Promise<void> | undefined;
    try {
      work = answerRequest(req, res, seen);
    } catch (err) {
      failed(res, err);
    }
    if (!work) return;
    const tracked: Promise<void> = work.catch((err: unknown) => failed(res, err)).finally(() => inflight.delete(tracked));
    inflight.add(tracked);
  };
  const tlsServer = options.tls ? createTlsServer({ cert: options.tls.cert, key: options.tls.key }, handle) : undefined;
  const server = tlsServer ?? createServer(handle);
  server.on('clientError', (_err, socket) => socket.destroy());
  // A failed TLS handshake (a client not trusting the certificate) is the client's business: no log line, no crash.
  tlsServer?.on('tlsClientError', (_err, socket) => socket.destroy());

  const { port, url } = await listenOn(server, options.host ?? '127.0.0.1', options.port ?? 0, tlsServer ? 'https' : 'http');

  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    stats,
    setKeys(next) {
      [clients, plans] = [clientsOf(next), plansOf(next)];
      loggedPaths.clear();
    },
    setTls(next) {
      tlsServer?.setSecureContext({ cert: next.cert, key: next.key });
    },
    close() {
      closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        // The unwinding after the grace period comes out of it: the whole close() stays within graceMs.
        const graceMs = Math.max(0, (options.graceMs ?? DEFAULT_GRACE_MS) - SETTLE_MS);
        await Promise.race([Promise.allSettled([...inflight]), sleep(graceMs, undefined, { ref: false })]);
        // Past the grace period: upstream requests and fills still running stop (a fill's .part stays), connections go.
        shutdown.abort();
        server.closeAllConnections();
        const settle = sleep(SETTLE_MS, undefined, { ref: false });
        await Promise.race([Promise.allSettled([...inflight]), settle]);
        await Promise.race([closed, settle]);
        await upstream.close();
        shared?.close();
      })();
      return closing;
    },
  };
}
