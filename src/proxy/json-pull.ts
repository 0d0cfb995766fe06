/**
 * Pull-through of the service's JSON answers: from the shared store when the client's
 * freshness model says the stored answer is fresh (src/cache/headers.ts: http-cache-semantics,
 * the configured TTL where the upstream says nothing); else from the upstream — conditionally when the stored one
 * has validators (a 304 refreshes it) — with concurrent identical misses coalesced into one
 * upstream request (as nginx's proxy_cache_lock). When the upstream fails, times out or the
 * budget is spent, a stale stored answer is served with a Warning rather than an error
 * (nginx's proxy_cache_use_stale); with nothing stored, 502/504 (429 for the budget).
 * Only a complete 200 whose body parses as JSON is ever stored, and only once the upstream key
 * is out of it (key-scrub.ts); an upstream answer must come whole within the whole-answer limit
 * (upstream.ts), or every waiter gets 504. With shared state (shared-fill.ts) a miss is first
 * looked for among the answers other replicas keep, and filled once across them.
 */
import type CachePolicy from 'http-cache-semantics';
import { freshnessFor, revalidated, validatorsOf } from '../cache/headers.js';
import { type Freshness, isFresh } from '../cache/store-files.js';
import type { Settings } from '../config/settings.js';
import { type ProxyAnswer, errorAnswer, keyRefusedAnswer, rateLimitedAnswer, unreachableAnswer } from './answers.js';
import { type AnswerStore, type StoredAnswer, fromStored, storedAnswer, stringHeaders } from './answer-store.js';
import { carriesKey, scrubAnswer } from './key-scrub.js';
import type { FillObserver } from './metrics.js';
import { IncompleteBodyError, type Upstream, type UpstreamBody } from './upstream.js';
import type { SharedFill } from './shared-fill.js';

/** Upstream response headers kept with an answer and passed on; everything else (rate limits, cookies, hop-by-hop) stays behind. */
const KEPT_HEADERS = ['content-type', 'content-language', 'etag', 'last-modified', 'cache-control', 'expires', 'date', 'vary'];

export interface JsonPullOptions {
  upstream: Upstream;
  store: AnswerStore;
  /** cache-ttl: the freshness of answers whose headers give none. */
  settings: Pick<Settings, 'cacheTtl'>;
  /** An answer refused because it carries the upstream key (never quoting it). */
  warn?: (line: string) => void;
  /** Each upstream request made, for the metrics. */
  observe: FillObserver;
  /** Replicas sharing a Redis: misses filled once across them, answers kept there. */
  shared?: SharedFill | undefined;
}

function keptHeaders(headers: UpstreamBody['headers']): Record<string, string> {
  return stringHeaders(Object.fromEntries(KEPT_HEADERS.map((name) => [name, headers[name]])));
}

export class JsonPull {
  private readonly inflight = new Map<string, Promise<ProxyAnswer>>();

  constructor(private readonly options: JsonPullOptions) {}

  private readonly fresh = (freshness: Freshness): boolean => isFresh(freshness, Date.now(), this.options.settings.cacheTtl);

  /** The answer stored under `key` when it is held in memory and fresh: a hit, had without I/O. */
  hit(key: string): ProxyAnswer | undefined {
    const held = this.options.store.held(key, this.fresh);
    return held && fromStored(held, 'hit');
  }

  /** The answer to GET `target` (path and query as the client sent them), stored under `key`. */
  async answer(target: string, key: string): Promise<ProxyAnswer> {
    const running = this.inflight.get(key);
    if (running) return { ...(await running), outcome: 'coalesced' };
    const stored = await this.options.store.get(key, this.fresh);
    if (stored && this.fresh(stored.freshness)) return fromStored(stored, 'hit');
    // Checked again: another request may have started the fetch while the store was read.
    const started = this.inflight.get(key);
    if (started) return { ...(await started), outcome: 'coalesced' };
    const fetching = (this.options.shared ? this.fetchOnce(this.options.shared, target, key, stored) : this.fetch(target, key, stored)).finally(() =>
      this.inflight.delete(key),
    );
    this.inflight.set(key, fetching);
    return fetching;
  }

  /** The answer another replica keeps (a hit; coalesced when its fill was waited for), else fetched under the shared lock. */
  private fetchOnce(shared: SharedFill, target: string, key: string, stored: StoredAnswer | undefined): Promise<ProxyAnswer> {
    const found = async (waited: boolean): Promise<ProxyAnswer | undefined> => {
      const kept = await shared.answer(key);
      if (!kept || !this.fresh(kept.freshness)) return undefined;
      await this.options.store.put(key, kept);
      return fromStored(kept, waited ? 'coalesced' : 'hit');
    };
    return shared.once(key, found, () => this.fetch(target, key, stored)).catch((err: unknown) => this.failed(err, stored));
  }

  /** Stores an answer, and shares it with the other replicas. */
  private async keep(key: string, entry: StoredAnswer): Promise<void> {
    await this.options.store.put(key, entry);
    const { freshUntil, storedAt } = entry.freshness;
    await this.options.shared?.share(key, entry, freshUntil ?? storedAt + this.options.settings.cacheTtl);
  }

  private async fetch(target: string, key: string, stored: StoredAnswer | undefined): Promise<ProxyAnswer> {
    const { upstream } = this.options;
    // The request an answer is judged against. The client's own request headers are left out on purpose: a client's
    // `Cache-Control: no-cache` must not make the proxy spend the team's upstream budget, and the upstream key is not the client's.
    const request: CachePolicy.Request = { method: 'GET', url: target, headers: { accept: 'application/json' } };
    const conditional: Record<string, string> = {};
    if (stored) {
      const { etag, lastModified } = await validatorsOf(stored.freshness, request);
      if (etag !== undefined) conditional['if-none-match'] = etag;
      if (lastModified !== undefined) conditional['if-modified-since'] = lastModified;
    }
    let res: UpstreamBody & { json: boolean };
    const began = performance.now();
    try {
      // The upstream key out of everything before anything is judged, stored or sent (key-scrub.ts).
      res = scrubAnswer(await upstream.fetchWhole(target, { accept: 'application/json', ...conditional }), (text) => upstream.redact(text));
    } catch (err) {
      this.options.observe('json', began, err);
      return this.failed(err, stored);
    }
    this.options.observe('json', began, res.status);
    if (carriesKey(res, (text) => upstream.redact(text))) {
      this.options.warn?.(
        `proxy: the upstream answer to ${upstream.redact(target)} still carries the proxy's upstream key after redaction; refused, nothing stored.`,
      );
      return errorAnswer(502, 'bad_gateway', 'The upstream service sent an answer the proxy cannot pass on; nothing was stored.');
    }
    if (res.status === 304 && stored && Object.keys(conditional).length > 0) {
      const updated = await revalidated(stored.freshness, keptHeaders(res.headers), Date.now(), request);
      // A 304 that says no-store: the stored body still answers this request, and is kept no longer than it was.
      if (!updated) return fromStored(stored, 'revalidated');
      const confirmed = storedAnswer(updated.freshness, updated.policy, stored.body);
      await this.keep(key, confirmed);
      return fromStored(confirmed, 'revalidated');
    }
    if (res.status === 200) {
      if (!res.json) return this.failed(new IncompleteBodyError(`The upstream answer to ${target} is not JSON.`), stored);
      const judged = await freshnessFor(keptHeaders(res.headers), Date.now(), request);
      if (judged) await this.keep(key, storedAnswer(judged.freshness, judged.policy, res.body));
      const headers = judged ? stringHeaders(judged.policy.responseHeaders()) : keptHeaders(res.headers);
      return { status: 200, headers, body: res.body, outcome: 'miss', serviceJson: true };
    }
    return this.upstreamRefused(res, stored);
  }

  /** The upstream answered with an error status. */
  private upstreamRefused(res: UpstreamBody, stored: StoredAnswer | undefined): ProxyAnswer {
    const { upstream } = this.options;
    if (res.status >= 500 || res.status === 429) {
      if (stored) return fromStored(stored, 'stale');
      const retryAfter = res.headers['retry-after'];
      if (res.status === 429) return rateLimitedAnswer(typeof retryAfter === 'string' ? retryAfter : undefined);
      return errorAnswer(502, 'bad_gateway', `The upstream service failed (${res.status}) and the proxy has no stored answer to this request.`);
    }
    if (res.status === 401 || res.status === 403) {
      // The proxy's own key was refused: a client's key is fine, so this is the proxy's fault to report, not an auth error of the client's.
      upstream.keyRefused(res.status);
      return keyRefusedAnswer(res.status);
    }
    // 400, 404…: the upstream's verdict on the request itself, passed on (not stored), its text cleared of the upstream key.
    const type = res.headers['content-type'];
    return {
      status: res.status,
      headers: { 'content-type': typeof type === 'string' ? type : 'application/json; charset=utf-8', 'cache-control': 'no-store' },
      body: Buffer.from(upstream.redact(res.body.toString('utf8'))),
      outcome: 'miss',
      serviceJson: false,
    };
  }

  /** No usable upstream answer: the stale stored one if any, else an error saying why. */
  private failed(err: unknown, stored: StoredAnswer | undefined): ProxyAnswer {
    if (stored) return fromStored(stored, 'stale');
    if (err instanceof IncompleteBodyError) {
      return errorAnswer(502, 'bad_gateway', 'The upstream service sent an incomplete or malformed answer; nothing was stored.');
    }
    return unreachableAnswer(err, ' and the proxy has no stored answer to this request');
  }
}
