/**
 * What the proxy has done since it started, for `GET /-/status` and the access log: answers by
 * outcome and bytes served, in all and per client (its label, or its key's short hash:
 * client-keys.ts). The month's upstream requests come from the ledger (shared with other
 * processes and replicas), not from here.
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
    return { hits: hit, misses: miss, revalidated, coalesced, stale, errors: this.errors, bytesServed: this.bytesServed };
  }
}

export class ProxyStats {
  readonly startedAt = Date.now();
  private readonly all = new Figures();
  /** Only clients with a valid key: labels and hashes come from the keys file, so this stays as small as it is. */
  private readonly byClient = new Map<string, Figures>();

  /** One request, as the access log records it (a client that left early has status undefined: counted as nothing served). */
  count(record: Pick<AccessRecord, 'client' | 'outcome' | 'status' | 'bytes'>): void {
    const status = record.status ?? 0;
    this.all.add(record.outcome, status, record.bytes);
    if (record.client === '-') return;
    let figures = this.byClient.get(record.client);
    if (!figures) this.byClient.set(record.client, (figures = new Figures()));
    figures.add(record.outcome, status, record.bytes);
  }

  get outcomes(): Readonly<Record<Outcome, number>> {
    return this.all.outcomes;
  }

  /** The body of `GET /-/status`. */
  report(usage: LedgerUsage): Record<string, unknown> {
    const clients = Object.fromEntries(
      [...this.byClient].sort(([a], [b]) => a.localeCompare(b)).map(([name, f]) => [name, { requests: f.requests, ...f.report() }]),
    );
    return {
      month: usage.month,
      upstreamRequests: usage.requests,
      budget: usage.budget,
      remaining: usage.remaining,
      since: new Date(this.startedAt).toISOString(),
      ...this.all.report(),
      clients,
    };
  }
}
