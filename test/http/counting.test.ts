/**
 * The transport hooks over the ledger: without a budget, requests are counted in memory and
 * added in batches (one lock per batch, not per request); with one, each is reserved first.
 */

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BudgetExceededError } from '../../src/errors.js';
import { Ledger } from '../../src/cache/ledger.js';
import { COUNT_BATCH, requestCount } from '../../src/http/counting.js';
import { tempDir } from '../helpers/temp.js';

const ORIGIN = 'http://127.0.0.1:9';
const url = new URL('/exercise/Push_Up', ORIGIN);

function ledgerFile(): string {
  return join(tempDir('exercises-count-'), 'ledger.json');
}

describe('requestCount', () => {
  it('without a budget adds requests to the ledger in batches and the rest at exit, none lost', async () => {
    const path = ledgerFile();
    const count = requestCount({ path, origin: ORIGIN, keyHash: 'k', budget: null });
    const sent = COUNT_BATCH + COUNT_BATCH / 2;
    for (let i = 0; i < sent; i++) await count.beforeRequest(url);
    expect((await new Ledger(path).usage(ORIGIN, 'k')).requests).toBe(COUNT_BATCH);
    await count.flush();
    expect((await new Ledger(path).usage(ORIGIN, 'k')).requests).toBe(sent);
  });

  it('with a budget reserves each request before it is sent and refuses the one that would pass it', async () => {
    const path = ledgerFile();
    const count = requestCount({ path, origin: ORIGIN, keyHash: 'k', budget: 3 });
    for (let i = 0; i < 3; i++) await count.beforeRequest(url);
    expect((await new Ledger(path).usage(ORIGIN, 'k')).requests).toBe(3); // counted before the flush
    await expect(count.beforeRequest(url)).rejects.toBeInstanceOf(BudgetExceededError);
  });

  it('counts nothing sent to another origin', async () => {
    const path = ledgerFile();
    const count = requestCount({ path, origin: ORIGIN, keyHash: 'k', budget: null });
    await count.beforeRequest(new URL('https://media.example.invalid/a.png'));
    await count.flush();
    expect((await new Ledger(path).usage(ORIGIN, 'k')).requests).toBe(0);
  });

  it('gives back what never left: in memory without a budget, from the ledger with one, never below 0', async () => {
    const free = ledgerFile();
    const count = requestCount({ path: free, origin: ORIGIN, keyHash: 'k', budget: null });
    await count.beforeRequest(url);
    await (
      await count.beforeRequest(url)
    )?.();
    await count.flush();
    expect((await new Ledger(free).usage(ORIGIN, 'k')).requests).toBe(1);

    const path = ledgerFile();
    const budgeted = requestCount({ path, origin: ORIGIN, keyHash: 'k', budget: 2 });
    await budgeted.beforeRequest(url);
    const giveBack = await budgeted.beforeRequest(url);
    await expect(budgeted.beforeRequest(url)).rejects.toBeInstanceOf(BudgetExceededError);
    await giveBack?.();
    expect((await new Ledger(path).usage(ORIGIN, 'k')).requests).toBe(1);
    await budgeted.beforeRequest(url); // the budget's last request is free again
    await new Ledger(path).resetMonth(ORIGIN, 'k');
    await giveBack?.();
    expect((await new Ledger(path).usage(ORIGIN, 'k')).requests).toBe(0);
  });
});
