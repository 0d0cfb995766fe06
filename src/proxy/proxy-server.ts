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
 */
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { join } from 'node:path';
import { escapeUnsafe } from '../util/text.js';
import { CATALOGUE_FILE } from '../catalogue/catalogue-dir.js';
import { type Catalogue, readCatalogue } from '../catalogue/load.js';
import { HttpError, firstHeader, notFound, sendError, sendJson } from '../server/http-error.js';
import { ALLOWED_METHODS, parseTarget, route } from '../server/router.js';
import type { Outcome } from './answers.js';
import { answerWriter } from './answer-writer.js';
import { AnswerStore, answerKey } from './answer-store.js';
import { JsonPull } from './json-pull.js';
import { MediaPull } from './media-pull.js';
import { removeStaleParts } from './media-parts.js';
import { ProxyStats } from './stats.js';
import { Upstream, type UpstreamOptions } from './upstream.js';
import { listenOn } from '../server/listen.js';
import { maskedTarget } from './log-target.js';
import { type ClientKey, type ClientKeys, clientName, plansOf } from './client-keys.js';
import type { TlsFiles } from './tls-files.js';
import { type AccessRecord, DEFAULT_LOG_FORMAT, type LogFormat, formatAccess, isoNow } from './access-log.js';
import { createProxyMetrics, mayReadMetrics } from './metrics.js';

export interface ProxyServerOptions {
  upstream: UpstreamOptions;
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
  /** Freshness of answers whose headers give none, seconds. */
  defaultTtlSeconds: number;
  /** The access log, one line per request. Never a key. */
  log?: (line: string) => void;
  /** How the log lines are written (access-log.ts); text by default. */
  logFormat?: LogFormat;
  /** Store and ledger problems. */
  warn?: (line: string) => void;
  /** How long answers in flight may take to finish once close() is called; default 2 s. */
  graceMs?: number;
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

const MAX_URL_LENGTH = 8192;
/** The logged forms of targets held at most (then all are let go), and the longest target held: a few hundred KB at worst. */
const LOGGED_PATHS_HELD = 1024;
const MAX_LOGGED_PATH_HELD = 256;
/** Under the 3 s main() (cli.ts) allows work after SIGINT/SIGTERM before it exits anyway. */
const DEFAULT_GRACE_MS = 2_000;
/** After the grace period, the most the aborted work is given to unwind before close() returns anyway. */
const SETTLE_MS = 200;

/** Who asked (the key's label, else its short hash: client-keys.ts; `-` until the key is checked) and how it was answered. */
interface Seen {
  client: string;
  outcome: Outcome | undefined;
}

function isMetricsPath(target: string): boolean {
  return target === '/-/metrics' || target.startsWith('/-/metrics?');
}

/** A fragment is the client's own business (browsers never send one): it never reaches a cache key nor the upstream. */
function withoutFragment(target: string): string {
  const hash = target.indexOf('#');
  return hash === -1 ? target : target.slice(0, hash);
}

export async function createProxyServer(options: ProxyServerOptions): Promise<ProxyServer> {
  const shutdown = new AbortController();
  const upstream = new Upstream({ ...options.upstream, signal: shutdown.signal });
  await upstream.usage().catch(() => undefined);
  const store = new AnswerStore(options.cacheDir, options.warn);
  const stats = new ProxyStats();
  const metrics = await createProxyMetrics(stats, () => upstream.usage(), upstream.budget !== null);
  const observe = metrics.filled;
  const json = new JsonPull({ upstream, store, defaultTtlSeconds: options.defaultTtlSeconds, observe, ...(options.warn ? { warn: options.warn } : {}) });
  const media = new MediaPull({ root: options.dir, upstream, signal: shutdown.signal, observe, ...(options.warn ? { log: options.warn } : {}) });
  await removeStaleParts(options.dir, options.warn);
  const catalogue: Catalogue | undefined = existsSync(join(options.dir, CATALOGUE_FILE)) ? readCatalogue(options.dir) : undefined;
  const upstreamKey = options.upstream.apiKey;
  let keys = options.keys;
  // The catalogue server's routes (a local catalogue) take plans alone: kept beside the keys, replaced with them.
  let plans = plansOf(keys);
  // A client's name made once per key: a SHA-256 on every cache hit was a sizeable part of one. Cleared on reload.
  const clientNames = new Map<string, string>();
  const nameOf = (key: string, entry: ClientKey): string => {
    let name = clientNames.get(key);
    if (name === undefined) clientNames.set(key, (name = clientName(key, entry)));
    return name;
  };
  const isAnyKey = (value: string): boolean => value !== '' && (value === upstreamKey || Object.hasOwn(keys, value));
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
    const rawUrl = withoutFragment(req.url ?? '/');
    if (rawUrl.length > MAX_URL_LENGTH) throw new HttpError(414, 'bad_request', 'The request URL is too long.');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      throw new HttpError(405, 'method_not_allowed', `Method ${req.method ?? ''} is not allowed; this service is read-only.`, undefined, {
        Allow: ALLOWED_METHODS,
      });
    }
    const key = firstHeader(req, 'x-api-key');
    // Metrics: for a client key, or from this machine without one (a Prometheus agent on the proxy's host).
    if (isMetricsPath(rawUrl) && mayReadMetrics(req.socket.remoteAddress, key !== undefined && Object.hasOwn(keys, key))) {
      return metrics.text().then((text) => {
        res.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store', 'content-length': String(Buffer.byteLength(text)) });
        res.end(req.method === 'HEAD' ? undefined : text);
      });
    }
    if (key === undefined || key === '') throw new HttpError(401, 'unauthorized', 'An API key is required in the X-API-Key header.');
    const entry = Object.hasOwn(keys, key) ? keys[key] : undefined;
    if (!entry) throw new HttpError(401, 'unauthorized', 'The API key is not valid.');
    const { plan } = entry;
    seen.client = nameOf(key, entry);
    seen.outcome = 'hit';

    const { segments, path, query } = parseTarget(rawUrl);
    if (path === '/-/status') return upstream.usage().then((usage) => sendJson(res, 200, stats.report(usage)));
    const [first, second, third, fourth] = segments;

    // A dot segment would be resolved away in the upstream URL (`/exercise/..` is `/`): it names no exercise.
    if (first === 'exercise' && segments.length === 2 && second !== undefined && second !== '' && second !== '.' && second !== '..') {
      const local =
        catalogue && (second === 'query' || second === 'exerciseIds' || catalogue.indexById.has(second) || catalogue.byLowerName.has(second.toLowerCase()));
      if (local) return route(req, res, { catalogue: () => catalogue, keys: plans, cursors: true, etags: true });
      const storeKey = answerKey(upstream.baseUrl, upstreamKey, path, query);
      const hit = json.hit(storeKey);
      if (hit) {
        send(req, res, hit, plan);
        return undefined;
      }
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

  const inflight = new Set<Promise<void>>();
  const logFormat = options.logFormat ?? DEFAULT_LOG_FORMAT;
  /** A request that could not be answered: its error answer, or the connection cut when the answer had begun. */
  const failed = (res: ServerResponse, err: unknown): void => {
    const httpError = err instanceof HttpError ? err : new HttpError(500, 'internal_error', 'The proxy failed to answer this request.');
    // Work cut by shutdown (past the grace period) is expected, not a failure to report.
    if (!(err instanceof HttpError) && !shutdown.signal.aborted) options.warn?.(`proxy: ${upstream.redact((err as Error).message ?? String(err))}`);
    if (!res.headersSent) sendError(res, httpError);
    else res.destroy();
  };
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const started = performance.now();
    // Bytes put on this connection while answering (headers included): writeHead's headers are not readable back.
    const writtenBefore = req.socket.bytesWritten;
    const seen: Seen = { client: '-', outcome: undefined };
    res.on('close', () => {
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
      keys = next;
      plans = plansOf(next);
      clientNames.clear();
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
        const grace = new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref());
        await Promise.race([Promise.allSettled([...inflight]), grace]);
        // Past the grace period: upstream requests and fills still running stop (a fill's .part stays), connections go.
        shutdown.abort();
        server.closeAllConnections();
        const settle = new Promise<void>((resolve) => setTimeout(resolve, SETTLE_MS).unref());
        await Promise.race([Promise.allSettled([...inflight]), settle]);
        await Promise.race([closed, settle]);
        await upstream.close();
      })();
      return closing;
    },
  };
}
