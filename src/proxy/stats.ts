/**
 * What the proxy has done since it started, for `GET /-/status` and the access log: answers by
 * outcome and bytes served. The month's upstream requests come from the ledger (shared with
 * other processes and replicas), not from here.
 */
import type { LedgerUsage } from '../cache/ledger.js';
import type { Outcome } from './answers.js';

export class ProxyStats {
  readonly startedAt = Date.now();
  readonly outcomes: Record<Outcome, number> = { hit: 0, miss: 0, revalidated: 0, coalesced: 0, stale: 0 };
  /** Answers that were errors of the proxy's own (401 to a client, 429 budget, 502/504). */
  errors = 0;
  bytesServed = 0;

  count(outcome: Outcome | undefined, status: number, bytes: number): void {
    if (outcome) this.outcomes[outcome] += 1;
    if (status >= 400) this.errors += 1;
    this.bytesServed += bytes;
  }

  /** The body of `GET /-/status`. */
  report(usage: LedgerUsage): Record<string, unknown> {
    return {
      month: usage.month,
      upstreamRequests: usage.requests,
      budget: usage.budget,
      remaining: usage.remaining,
      since: new Date(this.startedAt).toISOString(),
      hits: this.outcomes.hit,
      misses: this.outcomes.miss,
      revalidated: this.outcomes.revalidated,
      coalesced: this.outcomes.coalesced,
      stale: this.outcomes.stale,
      errors: this.errors,
      bytesServed: this.bytesServed,
    };
  }
}
