/** This month's usage of the connection in force, for `quota` and `auth status`: the ledger read without its lock (it is replaced whole). */
import { plural } from '../util/text.js';
import { keyHash } from './cached-get.js';
import { Ledger, type LedgerUsage, SANDBOX_LEDGER_ORIGIN, ledgerOrigin } from './ledger.js';
import { cacheRoot, ledgerPath, type EnvVars } from './store-files.js';

export interface UsageQuery {
  env: EnvVars;
  baseUrl: string;
  baseUrlSource?: string;
  apiKey?: string | undefined;
  budget: number | null;
}

export interface ConnectionUsage extends LedgerUsage {
  origin: string;
  ledger: string;
}

export async function connectionUsage(query: UsageQuery): Promise<ConnectionUsage> {
  const ledger = new Ledger(ledgerPath(cacheRoot(query.env)));
  const origin = ledgerOrigin(query);
  const usage = await ledger.usage(origin, keyHash(query.apiKey), { budget: query.budget });
  return { ...usage, origin, ledger: ledger.path };
}

/** Sets this month's count back to 0 under the ledger's lock; resolves to the sentence saying so. */
export async function resetConnectionMonth(query: Omit<UsageQuery, 'budget'>): Promise<string> {
  const ledger = new Ledger(ledgerPath(cacheRoot(query.env)));
  const origin = ledgerOrigin(query);
  const had = await ledger.resetMonth(origin, keyHash(query.apiKey));
  const where = origin === SANDBOX_LEDGER_ORIGIN ? 'the --sandbox server' : origin;
  return `The count of requests this month to ${where} with this key was ${had}; it is now 0 (${ledger.path}).`;
}

/** `12 requests in 2026-11 to https://api.example.com, budget 100, 88 left` — the one line. */
export function usageLine(usage: ConnectionUsage): string {
  const counted = `${plural(usage.requests, 'request')} in ${usage.month} to ${usage.origin === SANDBOX_LEDGER_ORIGIN ? 'the --sandbox server' : usage.origin}`;
  return usage.budget === null ? `${counted}, no budget set` : `${counted}, budget ${usage.budget}, ${usage.remaining} left`;
}
