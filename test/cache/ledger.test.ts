/** The request ledger in one process: counting, the budget, months, rate-limit headers, a damaged file, a stale lock. */
import { existsSync, mkdirSync, readFileSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { Ledger } from '../../src/cache/ledger.js';
import { BudgetExceededError, ExitCode } from '../../src/errors.js';
import { tempDir } from '../helpers/temp.js';

const ORIGIN = 'https://api.example.test';
const HASH = 'abcdef0123456789';
const JUNE = Date.UTC(2025, 5, 15);

let file: string;
let warnings: string[];
let ledger: Ledger;

beforeEach(() => {
  file = join(tempDir(), 'cache', 'ledger.json');
  warnings = [];
  ledger = new Ledger(file, { warn: (m) => warnings.push(m) });
});

describe('reserve', () => {
  it('counts every request per origin and key, and persists the count', async () => {
    expect(await ledger.usage(ORIGIN, HASH, { now: JUNE })).toEqual({ month: '2025-06', requests: 0, budget: null, remaining: null, rateLimit: null });
    for (let i = 0; i < 3; i++) await ledger.reserve(ORIGIN, HASH, { now: JUNE });
    await ledger.reserve('http://127.0.0.1:9999', HASH, { now: JUNE });
    await ledger.reserve(ORIGIN, 'another-key-hash', { now: JUNE });
    const reopened = new Ledger(file);
    expect(await reopened.usage(ORIGIN, HASH, { now: JUNE, budget: 10 })).toMatchObject({ requests: 3, budget: 10, remaining: 7 });
    expect((await reopened.usage('http://127.0.0.1:9999', HASH, { now: JUNE })).requests).toBe(1);
    expect((await reopened.usage(ORIGIN, 'another-key-hash', { now: JUNE })).requests).toBe(1);
    expect(readdirSync(join(file, '..')).sort()).toEqual(['ledger.json', 'ledger.json.prev']); // no temp files or lock left behind: the file and its last good copy
  });

  it('stops exactly at the budget, before counting, with exit code 5 and a sentence saying how to raise it', async () => {
    const seen = [];
    for (let i = 0; i < 3; i++) seen.push((await ledger.reserve(ORIGIN, HASH, { budget: 3, now: JUNE })).remaining);
    expect(seen).toEqual([2, 1, 0]);
    const err = await ledger.reserve(ORIGIN, HASH, { budget: 3, now: JUNE }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BudgetExceededError);
    const budgetError = err as BudgetExceededError;
    expect(budgetError.exitCode).toBe(ExitCode.RATE_LIMITED);
    expect(budgetError.code).toBe('budget_exceeded');
    expect(budgetError.message).toBe(
      'The request budget for 2025-06 is spent: 3 of 3 requests already sent to https://api.example.test, so this one was not sent.',
    );
    expect(budgetError.hint).toContain('--budget <n>');
    expect(budgetError.hint).toContain('exercises config set budget <n>');
    expect((await ledger.usage(ORIGIN, HASH, { now: JUNE })).requests).toBe(3);
    // a higher budget lets the next one through
    expect(await ledger.reserve(ORIGIN, HASH, { budget: 4, now: JUNE })).toMatchObject({ requests: 4, remaining: 0 });
  });

  it('with a budget of 0 sends nothing', async () => {
    await expect(ledger.reserve(ORIGIN, HASH, { budget: 0, now: JUNE })).rejects.toThrow(/0 of 0 requests/);
    expect((await ledger.usage(ORIGIN, HASH, { now: JUNE })).requests).toBe(0);
  });

  it('starts each calendar month (UTC) from zero', async () => {
    const lastSecondOfJune = Date.UTC(2025, 5, 30, 23, 59, 59);
    const firstOfJuly = Date.UTC(2025, 6, 1, 0, 0, 0);
    await ledger.reserve(ORIGIN, HASH, { budget: 1, now: lastSecondOfJune });
    await expect(ledger.reserve(ORIGIN, HASH, { budget: 1, now: lastSecondOfJune })).rejects.toBeInstanceOf(BudgetExceededError);
    expect(await ledger.reserve(ORIGIN, HASH, { budget: 1, now: firstOfJuly })).toMatchObject({ month: '2025-07', requests: 1, remaining: 0 });
    expect((await ledger.usage(ORIGIN, HASH, { month: '2025-06' })).requests).toBe(1);
  });

  it('keeps the file small: months older than 13 before this one are pruned', async () => {
    for (let m = 0; m < 20; m++) await ledger.reserve(ORIGIN, HASH, { now: Date.UTC(2024, m, 10) });
    const months = Object.keys(JSON.parse(readFileSync(file, 'utf8')).counts).sort();
    expect(months).toHaveLength(14);
    expect(months[0]).toBe('2024-07');
    expect(months.at(-1)).toBe('2025-08');
  });
});

describe('rate-limit headers', () => {
  it('keeps the last ones seen per connection, and ignores responses without any', async () => {
    ledger.noteRateLimit(ORIGIN, HASH, { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '99' }, { now: JUNE });
    await ledger.flush({ now: JUNE });
    ledger.noteRateLimit(ORIGIN, HASH, { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '98' }, { now: JUNE + 1 });
    await ledger.flush({ now: JUNE + 1 });
    ledger.noteRateLimit(ORIGIN, HASH, { 'content-type': 'application/json' }, { now: JUNE + 2 });
    await ledger.flush({ now: JUNE + 2 });
    expect((await ledger.usage(ORIGIN, HASH, { now: JUNE })).rateLimit).toEqual({
      limit: 100,
      remaining: 98,
      headers: { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '98' },
      seenAt: JUNE + 1,
    });
    expect((await ledger.usage(ORIGIN, 'other', { now: JUNE })).rateLimit).toBeNull();
  });

  it('noted in memory, written with the next reserve or at flush, without a lock of their own', async () => {
    expect(ledger.noteRateLimit(ORIGIN, HASH, { 'ratelimit-remaining': '7' }, { now: JUNE })).toBe(true);
    expect(ledger.noteRateLimit(ORIGIN, HASH, { etag: '"x"' }, { now: JUNE })).toBe(false);
    expect(existsSync(file)).toBe(false);
    expect((await ledger.usage(ORIGIN, HASH, { now: JUNE })).rateLimit).toMatchObject({ remaining: 7 });
    await ledger.reserve(ORIGIN, HASH, { now: JUNE });
    expect((await new Ledger(file).usage(ORIGIN, HASH, { now: JUNE })).rateLimit).toMatchObject({ remaining: 7, seenAt: JUNE });
    ledger.noteRateLimit(ORIGIN, HASH, { 'ratelimit-remaining': '6' }, { now: JUNE + 1 });
    await ledger.flush({ now: JUNE + 1 });
    expect((await new Ledger(file).usage(ORIGIN, HASH, { now: JUNE })).rateLimit).toMatchObject({ remaining: 6 });
    expect((await new Ledger(file).usage(ORIGIN, HASH, { now: JUNE })).requests).toBe(1);
  });

  it('writes nothing for a response without them', async () => {
    ledger.noteRateLimit(ORIGIN, HASH, {}, { now: JUNE });
    await ledger.flush();
    expect(existsSync(file)).toBe(false);
  });
});

describe('a damaged file or a dead lock holder', () => {
  it('sets an unreadable ledger aside, says so, and counts on', async () => {
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, '{"version":1,"counts":{');
    expect((await ledger.usage(ORIGIN, HASH, { now: JUNE })).requests).toBe(0);
    expect(await ledger.reserve(ORIGIN, HASH, { now: JUNE })).toMatchObject({ requests: 1 });
    expect(warnings.join('\n')).toMatch(/not readable and no good copy was left; it was moved to .*ledger\.json\.corrupt-/);
    expect(readdirSync(join(file, '..')).some((n) => n.startsWith('ledger.json.corrupt-'))).toBe(true);
  });

  it('takes over a lock left by a process that died holding it', async () => {
    mkdirSync(`${file}.lock`, { recursive: true });
    const past = new Date(Date.now() - 60_000);
    utimesSync(`${file}.lock`, past, past);
    const started = Date.now();
    expect(await ledger.reserve(ORIGIN, HASH, { now: JUNE })).toMatchObject({ requests: 1 });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(existsSync(`${file}.lock`)).toBe(false);
  });
});
