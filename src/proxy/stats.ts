/**
 * What the proxy has done since it started, for `GET /-/status`, the metrics (metrics.ts reads
 * these figures when scraped) and the access log: answers by outcome and status, bytes served,
 * in all and per client (its label, or its key's short hash: client-keys.ts). Counted once per
 * request in plain numbers: the cheapest place, as every cache hit passes here. The month's
 * upstream requests come from the ledger (shared with other processes and replicas), not from here.
 */
import type { LedgerUsage } from '../cache/ledger.js';
import type { AccessRecord } from './access-log.js';
import type { Outcome } from './answers.js';

/** Counts of one client, or of all. */
class Figures {
  requests = 0;
  readonly outcomes: Record<Outcome, number> = { hit: 0, miss: 0, revalidated: 0, coalesced: 0, stale: 0 };
  /** Answers that were errors of the proxy's own (401 to a client, 429 budget, 502/504). */
  errors = 0;
  bytesServed = 0;

  add(outcome: Outcome | undefined, status: number, bytes: number): void {
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
  count(record: Pick<AccessRecord, 'client' | 'outcome' | 'status' | 'bytes'>): void {
    const status = record.status ?? 0;
    this.all.add(record.outcome, status, record.bytes);
    let figures = this.byClient.get(record.client);
    if (!figures) this.byClient.set(record.client, (figures = new Figures()));
    figures.add(record.outcome, status, record.bytes);
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
