/**
 * `serve --upstream`: a pull-through caching proxy of the service for a team (as verdaccio is
 * for npm). Clients authenticate with keys of the proxy's own, each with a plan; answers come
 * from a catalogue directory when it holds them, else from the shared store of upstream
 * answers (json-pull.ts) or the media pulled into the directory (media-pull.ts); every
 * upstream request is counted in the ledger and held to the budget (upstream.ts).
 *
 * One access log line per request: the client's key as a short hash, method, path (query values
 * that are keys masked), status (`-` when the client left before its whole answer), how the
 * answer was had (hit|miss|revalidated|coalesced|stale), milliseconds. `GET /-/status`
 * (any client key) gives this month's upstream requests, the budget and the proxy's figures.
 * Every answer carries the month's upstream count as X-RateLimit-* headers (GitHub's names),
 * which the CLI notes for `exercises quota`.
 */
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { keyHash } from '../cache/keys.js';
import { escapeUnsafe } from '../util/text.js';
import { CATALOGUE_FILE, type Catalogue, loadCatalogue } from '../catalogue/load.js';
import { HttpError, notFound, sendError, sendJson } from '../server/http-error.js';
import type { Plan } from '../server/records.js';
import { ALLOWED_METHODS, parseTarget, route } from '../server/router.js';
import { type Outcome, type ProxyAnswer, nextMonthStart } from './answers.js';
import { AnswerStore, answerKey } from './answer-store.js';
import { JsonPull } from './json-pull.js';
import { MediaPull } from './media-pull.js';
import { forPlan } from './plan-filter.js';
import { ProxyStats } from './stats.js';
import { Upstream, type UpstreamOptions } from './upstream.js';
import { listenOn } from '../server/listen.js';
import { maskedTarget } from './log-target.js';
import { createProxyMetrics, mayReadMetrics } from './metrics.js';

export interface ProxyServerOptions {
  upstream: UpstreamOptions;
  /** The store of upstream answers (the CLI's, cache/paths.ts httpCacheDir, by default). */
  cacheDir: string;
  /** Media are pulled into it; when it holds exercises.jsonl, its records answer first. */
  dir: string;
  /** The clients' keys and their plans. */
  keys: Readonly<Record<string, Plan>>;
  host?: string;
  port?: number;
  /** Freshness of answers whose headers give none, seconds. */
  defaultTtlSeconds: number;
  /** The access log, one line per request. Never a key. */
  log?: (line: string) => void;
  /** Store and ledger problems. */
  warn?: (line: string) => void;
  /** How long answers in flight may take to finish once close() is called; default 2 s. */
  graceMs?: number;
}

export interface ProxyServer {
  url: string;
  port: number;
  stats: ProxyStats;
  /** Stops taking requests, lets those in flight finish (up to graceMs), then ends the rest. */
  close(): Promise<void>;
}

const MAX_URL_LENGTH = 8192;
/** Under the 3 s main() (cli.ts) allows work after SIGINT/SIGTERM before it exits anyway. */
const DEFAULT_GRACE_MS = 2_000;
/** After the grace period, the most the aborted work is given to unwind before close() returns anyway. */
const SETTLE_MS = 200;

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** RFC 9110 If-None-Match against the ETag an answer carries (weak comparison). */
function notModified(req: IncomingMessage, etag: string | undefined): boolean {
  const asked = header(req, 'if-none-match');
  if (asked === undefined || etag === undefined) return false;
  const bare = etag.replace(/^W\//, '');
  return asked.trim() === '*' || asked.split(',').some((t) => t.trim().replace(/^W\//, '') === bare);
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
  const metrics = await createProxyMetrics(() => upstream.usage(), upstream.budget !== null);
  const observe = metrics.filled;
  const json = new JsonPull({ upstream, store, defaultTtlSeconds: options.defaultTtlSeconds, observe, ...(options.warn ? { warn: options.warn } : {}) });
  const media = new MediaPull({ root: options.dir, upstream, signal: shutdown.signal, observe, ...(options.warn ? { log: options.warn } : {}) });
  await media.removeStaleParts();
  const catalogue: Catalogue | undefined = existsSync(join(options.dir, CATALOGUE_FILE)) ? await loadCatalogue(options.dir) : undefined;
  const stats = new ProxyStats();
  const upstreamKey = options.upstream.apiKey;
  // A client's name in the log made once per key: a SHA-256 on every cache hit was a sizeable part of one.
  const clientNames = new Map<string, string>();
  const clientName = (key: string): string => {
    let name = clientNames.get(key);
    if (name === undefined) clientNames.set(key, (name = keyHash(key).slice(0, 8)));
    return name;
  };
  const isAnyKey = (value: string): boolean => value !== '' && (value === upstreamKey || Object.hasOwn(options.keys, value));

  /** The month's upstream count as GitHub names it (X-RateLimit-Used…), plus the limit when there is a budget. */
  function rateHeaders(): Record<string, string> {
    const usage = upstream.knownUsage;
    if (!usage) return {};
    const headers: Record<string, string> = {
      'x-ratelimit-used': String(usage.requests),
      'x-ratelimit-reset': String(Math.floor(nextMonthStart(Date.now()) / 1000)),
    };
    if (usage.budget !== null) {
      headers['x-ratelimit-limit'] = String(usage.budget);
      headers['x-ratelimit-remaining'] = String(usage.remaining ?? 0);
    }
    return headers;
  }

  function send(req: IncomingMessage, res: ServerResponse, answer: ProxyAnswer, plan: Plan): void {
    // A media fill that failed after streaming began has already sent its headers: the connection is cut instead.
    if (res.headersSent || res.destroyed) {
      res.destroy();
      return;
    }
    const shown = forPlan(answer, plan);
    const headers = { ...shown.headers, ...rateHeaders() };
    if (shown.status === 200 && notModified(req, shown.headers.etag)) {
      res.writeHead(304, { etag: shown.headers.etag!, ...rateHeaders() });
      res.end();
      return;
    }
    res.writeHead(shown.status, { ...headers, 'content-length': String(shown.body.length) });
    res.end(req.method === 'HEAD' ? undefined : shown.body);
  }

  async function answerRequest(req: IncomingMessage, res: ServerResponse, note: (outcome: Outcome, client: string) => void): Promise<void> {
    const rawUrl = withoutFragment(req.url ?? '/');
    if (rawUrl.length > MAX_URL_LENGTH) throw new HttpError(414, 'bad_request', 'The request URL is too long.');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      throw new HttpError(405, 'method_not_allowed', `Method ${req.method ?? ''} is not allowed; this service is read-only.`, undefined, {
        Allow: ALLOWED_METHODS,
      });
    }
    const key = header(req, 'x-api-key');
    // Metrics: for a client key, or from this machine without one (a Prometheus agent on the proxy's host).
    if (isMetricsPath(rawUrl) && mayReadMetrics(req.socket.remoteAddress, key !== undefined && Object.hasOwn(options.keys, key))) {
      const text = await metrics.text();
      res.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store', 'content-length': String(Buffer.byteLength(text)) });
      res.end(req.method === 'HEAD' ? undefined : text);
      return;
    }
    if (key === undefined || key === '') throw new HttpError(401, 'unauthorized', 'An API key is required in the X-API-Key header.');
    const plan = Object.hasOwn(options.keys, key) ? options.keys[key] : undefined;
    if (!plan) throw new HttpError(401, 'unauthorized', 'The API key is not valid.');
    const client = clientName(key);
    note('hit', client);

    const { segments, path, query } = parseTarget(rawUrl);
    if (path === '/-/status') {
      sendJson(res, 200, stats.report(await upstream.usage()));
      return;
    }
    const [first, second, third, fourth] = segments;

    // A dot segment would be resolved away in the upstream URL (`/exercise/..` is `/`): it names no exercise.
    if (first === 'exercise' && segments.length === 2 && second !== undefined && second !== '' && second !== '.' && second !== '..') {
      const local =
        catalogue && (second === 'query' || second === 'exerciseIds' || catalogue.indexById.has(second) || catalogue.byLowerName.has(second.toLowerCase()));
      if (local) return route(req, res, { catalogue: () => catalogue, keys: options.keys, cursors: true, etags: true });
      const target = query ? `${path}?${query}` : path;
      const answer = await json.answer(target, answerKey(upstream.baseUrl, upstreamKey, path, query));
      note(answer.outcome, client);
      send(req, res, answer, plan);
      return;
    }

    if ((first === 'images' || first === 'videos') && segments.length === 4 && third === 'premium' && second && fourth) {
      if (plan !== 'premium') throw new HttpError(403, 'forbidden', 'Premium images and videos need a premium plan.');
      const result = await media.serve(req, res, { folder: first, id: second, fileName: fourth, target: path });
      if (typeof result === 'string') note(result, client);
      else send(req, res, result, plan);
      return;
    }
    throw notFound('No such path.');
  }

  const inflight = new Set<Promise<void>>();
  const server = createServer((req, res) => {
    const started = process.hrtime.bigint();
    // Bytes put on this connection while answering (headers included): writeHead's headers are not readable back.
    const writtenBefore = req.socket.bytesWritten;
    let outcome: Outcome | undefined;
    let client = '-';
    res.once('close', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const bytes = Math.max(0, req.socket.bytesWritten - writtenBefore);
      // A client that left before the whole answer was handed over got nothing: status `-`, no hit counted.
      const delivered = res.writableFinished;
      const counted = delivered && res.statusCode < 400 ? outcome : undefined;
      stats.count(counted, delivered ? res.statusCode : 0, bytes);
      metrics.answered(counted, delivered ? res.statusCode : 0, bytes, client);
      const path = escapeUnsafe(upstream.redact(maskedTarget(req.url ?? '/', isAnyKey)).slice(0, 500));
      options.log?.(`${client} ${req.method ?? '-'} ${path} ${delivered ? res.statusCode : '-'} ${counted ?? '-'} ${ms.toFixed(1)}ms`);
    });
    const work = answerRequest(req, res, (o, c) => {
      outcome = o;
      client = c;
    })
      .catch((err: unknown) => {
        const httpError = err instanceof HttpError ? err : new HttpError(500, 'internal_error', 'The proxy failed to answer this request.');
        // Work cut by shutdown (past the grace period) is expected, not a failure to report.
        if (!(err instanceof HttpError) && !shutdown.signal.aborted) options.warn?.(`proxy: ${upstream.redact((err as Error).message ?? String(err))}`);
        if (!res.headersSent) sendError(res, httpError);
        else res.destroy();
      })
      .finally(() => inflight.delete(work));
    inflight.add(work);
  });
  server.on('clientError', (_err, socket) => socket.destroy());

  const { port, url } = await listenOn(server, options.host ?? '127.0.0.1', options.port ?? 0);

  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    stats,
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
