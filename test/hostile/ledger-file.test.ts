/**
 * The request ledger read by the one rule of util/safe-open.ts: a FIFO planted as ledger.json
 * (which a plain read waits on for ever: `quota`, `quota --reset-month` and every budgeted
 * request hung) is handled at once as a corrupt ledger is — refused under a budget, naming the
 * file; set aside without one, the count starting again.
 */
import { execFileSync } from 'node:child_process';
import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { BudgetUncheckedError } from '../../src/errors.js';
import { Ledger } from '../../src/cache/ledger.js';
import { tempDir } from '../helpers/temp.js';

const ORIGIN = 'http://127.0.0.1:9';

function fifoLedger(): { dir: string; path: string } {
  const dir = tempDir('exercises-ledger-');
  const path = join(dir, 'ledger.json');
  execFileSync('mkfifo', ['-m', '600', path]);
  return { dir, path };
}

describe.skipIf(process.platform === 'win32')('a FIFO in place of the ledger', () => {
  test('usage (quota) answers at once, reading it as empty', async () => {
    const { path } = fifoLedger();
    const started = Date.now();
    const usage = await new Ledger(path).usage(ORIGIN, 'k');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(usage.requests).toBe(0);
  });

  test('without a budget a request is counted afresh and the FIFO set aside, with a warning naming it', async () => {
    const { dir, path } = fifoLedger();
    const warnings: string[] = [];
    const ledger = new Ledger(path, { warn: (m) => warnings.push(m) });
    await ledger.add(ORIGIN, 'k', 1);
    expect((await ledger.usage(ORIGIN, 'k')).requests).toBe(1);
    expect(lstatSync(path).isFile()).toBe(true);
    expect(readdirSync(dir).some((name) => name.startsWith('ledger.json.corrupt-'))).toBe(true);
    expect(warnings.join('\n')).toContain(path);
  });

  test('a budgeted request is refused at once with an error naming the file, and nothing is counted', async () => {
    const { path } = fifoLedger();
    const started = Date.now();
    await expect(new Ledger(path).reserve(ORIGIN, 'k', { budget: 5 })).rejects.toThrow(BudgetUncheckedError);
    await expect(new Ledger(path).reserve(ORIGIN, 'k', { budget: 5 })).rejects.toThrow(path);
    expect(Date.now() - started).toBeLessThan(5_000);
    // Under a budget the file is left for the user to look at, not replaced.
    expect(lstatSync(path).isFIFO()).toBe(true);
  });
});
