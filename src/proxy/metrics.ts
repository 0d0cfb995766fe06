/**
 * What the proxy has done since it started: answers by outcome and status, bytes served, in all
 * and per client (its label, or its key's short hash: client-keys.ts), counted once per request
 * in plain numbers by ProxyStats — the cheapest place, as every cache hit passes here — for
 * `GET /-/status` and the metrics.
 *
 * The Prometheus metrics, for `GET /-/metrics` (text exposition format, made by prom-client,
 * loaded only when a proxy starts), turn those figures into counters only when scraped:
 * prom-client's labelled counters hash and check their labels on every increment, a sizeable
 * part of a cache hit. A registry of the proxy's own, not prom-client's global one: two proxies
 * in one process (tests) never mix their counts. The names, types and labels are listed in
 * docs/team.md ("Metrics"); change both together. Each upstream request is observed as the pulls
 * make it (json-pull.ts, media-pull.ts); the month's upstream requests and the budget left come
 * from the ledger (shared with other processes and replicas) at scrape time, as `/-/status` gives them.
 */
import type { LedgerUsage } from '../cache/ledger.js';
import { BudgetExceededError } from '../errors.js';
import { isLoopbackHost } from '../util/url-policy.js';
import { loadPromClient } from '../vendor/load.js';
import type { AccessRecord } from './access-log.js';
import type { Outcome } from './answers.js';
import { SharedStateDownError } from './shared-state.js';

type CountedRecord = Pick<AccessRecord, 'client' | 'outcome' | 'status' | 'bytes'>;

/** Counts of one client, or of all. */
class Figures {
  requests = 0;
  readonly outcomes: Record<Outcome, number> = { hit: 0, miss: 0, revalidated: 0, coalesced: 0, stale: 0 };
  /** Answers that were errors of the proxy's own (401 to a client, 429 budget, 502/504). */
  errors = 0;
  bytesServed = 0;

  add({ outcome, status = 0, bytes }: CountedRecord): void {
    this.requests += 1;
    if (outcome) this.outcomes[outcome] += 1;
    if (status >= 400) this.errors += 1;
    this.bytesServed += bytes;
  }

  report(): Record<string, number> {
    const { hit, miss, revalidated, coalesced, stale } = this.outcomes;
    return { requests: this.requests, hits: hit, misses: miss, revalidated, coalesced, stale, errors: this.errors, bytesServed: this.bytesServed };
  }
}

export class ProxyStats {
  readonly startedAt = Date.now();
  readonly all = new Figures();
  /**
   * By client, `-` (no valid key) included; the labels and hashes come from the keys file, so
   * this stays as small as it is.
   */
  readonly byClient = new Map<string, Figures>();
  /** By how answered (`none`: an error, or nothing delivered) and status (`none`: the client left first), as `answered status`. */
  readonly byAnswer = new Map<string, number>();

  /** One request, as the access log records it (a client that left early has status undefined: counted as nothing served). */
  count(record: CountedRecord): void {
    this.all.add(record);
    let figures = this.byClient.get(record.client);
    if (!figures) this.byClient.set(record.client, (figures = new Figures()));
    figures.add(record);
    const key = `${record.outcome ?? 'none'} ${record.status ?? 'none'}`;
    this.byAnswer.set(key, (this.byAnswer.get(key) ?? 0) + 1);
  }

  /** The body of `GET /-/status`: figures per client with a valid key. */
  report(usage: LedgerUsage): Record<string, unknown> {
    const named = [...this.byClient].filter(([name]) => name !== '-').sort(([a], [b]) => a.localeCompare(b));
    const { requests: _all, ...all } = this.all.report();
    return {
      month: usage.month,
      upstreamRequests: usage.requests,
      budget: usage.budget,
      remaining: usage.remaining,
      since: new Date(this.startedAt).toISOString(),
      ...all,
      clients: Object.fromEntries(named.map(([name, f]) => [name, f.report()])),
    };
  }
}

/** Fill durations: a JSON answer takes milliseconds to a second; a premium video, seconds to the upstream's whole-answer limit. */
const FILL_BUCKETS_S = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/**
 * The metrics of one proxy: `stats` its answers; `usage` reads the month's upstream figures from the ledger; `budgeted`: whether a budget is
 * in force; `sharedUp`: whether the shared state is up, with one.
 */
export async function createProxyMetrics(stats: ProxyStats, usage: () => Promise<LedgerUsage>, budgeted: boolean, sharedUp?: () => boolean) {
  const { Counter, Gauge, Histogram, Registry } = await loadPromClient();
  const registry = new Registry();
  const registers = [registry];
  /** A counter whose samples are read from `stats` at scrape time (`read` gives each label set and its count). */
  const fromStats = <L extends string>(name: string, help: string, labelNames: readonly L[], read: () => Iterable<[Partial<Record<L, string>>, number]>) =>
    new Counter({
      name,
      help,
      labelNames,
      registers,
      collect() {
        this.reset();
        for (const [labels, value] of read()) this.inc(labels, value);
      },
    });
  fromStats(
    'exercises_proxy_requests_total',
    'Answers given, by how they were had (hit, miss, revalidated, coalesced, stale; none for an error or a client that left) and HTTP status (none: the client left first).',
    ['answered', 'status'],
    () => [...stats.byAnswer].map(([kind, count]) => [{ answered: kind.split(' ')[0], status: kind.split(' ')[1] }, count]),
  );
  fromStats('exercises_proxy_client_requests_total', 'Requests by client, named as the access log names them.', ['client'], () =>
    [...stats.byClient].map(([client, figures]) => [{ client }, figures.requests]),
  );
  fromStats('exercises_proxy_served_bytes_total', 'Bytes sent to clients, headers included.', [], () => [[{}, stats.all.bytesServed]]);
  fromStats(
    'exercises_proxy_coalesced_waits_total',
    "Answers that waited for another client's identical upstream request instead of making their own.",
    [],
    () => [[{}, stats.all.outcomes.coalesced]],
  );
  const upstreamRequests = new Counter({
    name: 'exercises_proxy_upstream_requests_total',
    help: 'Upstream requests this process made, by kind (json, media) and upstream status (error: no answer).',
    labelNames: ['kind', 'status'] as const,
    registers,
  });

  const fills = new Histogram({
    name: 'exercises_proxy_fill_duration_seconds',
    help: 'How long an upstream request took, to the last byte of a JSON answer or of a media file, by kind.',
    labelNames: ['kind'] as const,
    buckets: FILL_BUCKETS_S,
    registers,
  });
  // Read at scrape time from the ledger, which other processes sharing it also count in.
  let reading: Promise<LedgerUsage | undefined> | undefined;
  const fromLedger = (name: string, help: string, pick: (usage: LedgerUsage) => number | null) =>
    new Gauge({
      name,
      help,
      registers,
      async collect() {
        const value = await (reading ??= usage().catch(() => undefined)).then((read) => read && pick(read));
        if (typeof value === 'number') this.set(value);
      },
    });
  fromLedger(
    'exercises_proxy_upstream_month_requests',
    "Upstream requests this month (UTC) in the proxy's ledger, every process sharing it included.",
    (u) => u.requests,
  );
  // Only with a budget: a gauge without one would read 0, as if it were spent.
  if (budgeted) {
    fromLedger(
      'exercises_proxy_upstream_budget_remaining',
      'Upstream requests left in the monthly budget; absent when there is no budget.',
      (u) => u.remaining,
    );
  }

  if (sharedUp) {
    new Gauge({
      name: 'exercises_proxy_shared_state_up',
      help: 'Whether the shared state (Redis) can be used: 1, or 0 while misses answer 503; absent without shared state.',
      registers,
      collect() {
        this.set(sharedUp() ? 1 : 0);
      },
    });
  }

  return {
    /** The Content-Type of text(). */
    contentType: registry.contentType,
    /**
     * Reports one upstream request of a pull begun at `began` (performance.now()) with what it
     * ended with: a status, or the error thrown. A budget refusal, or one for want of the shared state, sent nothing and is not reported.
     */
    filled(kind: 'json' | 'media', began: number, result: unknown): void {
      if (result instanceof BudgetExceededError || result instanceof SharedStateDownError) return;
      upstreamRequests.inc({ kind, status: typeof result === 'number' ? String(result) : 'error' });
      fills.observe({ kind }, (performance.now() - began) / 1000);
    },
    /** The exposition text of every metric now. */
    async text() {
      try {
        return await registry.metrics();
      } finally {
        reading = undefined;
      }
    },
  };
}

/** /-/metrics is for a client of the proxy (its key), or for whoever is on the proxy's own machine (a Prometheus agent beside it) without one. */
export function mayReadMetrics(remoteAddress: string | undefined, hasClientKey: boolean): boolean {
  return hasClientKey || (remoteAddress !== undefined && isLoopbackHost(remoteAddress));
}

/** Each upstream request a pull makes, for the metrics (json-pull.ts, media-pull.ts). */
export type FillObserver = Awaited<ReturnType<typeof createProxyMetrics>>['filled'];
