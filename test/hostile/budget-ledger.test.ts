/**
 * Class 11, the budget when its ledger is attacked: a lock dated in the future, a lock held
 * and never let go, a ledger that cannot be read or written, a corrupt ledger. With a budget
 * in force a request goes out only once it is durably counted; otherwise the command stops
 * with exit 5 and a sentence naming the ledger. Nothing is sent past the budget.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Ledger } from '../../src/cache/ledger.js';
import { BudgetUncheckedError } from '../../src/errors.js';
import { type HostileServer, json, startHostileServer } from '../helpers/hostile-server.js';
import { runCli } from '../helpers/run-cli.js';
import { KEY, cli, tempDir, timed } from './support.js';

let server: HostileServer;
let home: string;
let ledgerFile: string;
beforeAll(async () => (server = await startHostileServer()));
afterAll(() => server.close());
beforeEach(() => {
  home = tempDir('hostile-ledger-');
  ledgerFile = join(home, '.cache', 'exercises', 'ledger.json');
  server.route(/^\/exercise\//, (req, res, s) => json({ id: decodeURIComponent(req.url!.split('/')[2]!.split('?')[0]!), name: 'X' })(req, res, s));
});
afterEach(() => {
  server.reset();
  chmodSync(home, 0o700);
  rmSync(home, { recursive: true, force: true });
});

const run = (args: string[]) => cli(server, ['--no-cache', ...args], { env: { HOME: home } });
/**
 * The same as a process of its own, for the cases that count what was never sent: an in-process
 * run returns at its first error while the other ids of `show` may still be on their way to the
 * ledger, where a process has ended, and all its requests with it, once it exits.
 */
const runToExit = (args: string[]) => runCli(['--base-url', server.url, '--no-cache', ...args], { env: { HOME: home, EXERCISES_API_KEY: KEY } });
const exercises = () => server.count(/^\/exercise\//);

/** Spends `n` of the budget through the CLI, so the ledger holds them as any run would write them. */
async function spend(n: number): Promise<void> {
  const r = await run(['--budget', String(n), 'show', ...Array.from({ length: n }, (_, i) => `Spent_${i}`)]);
  expect(r.code, r.stderr).toBe(0);
}

describe('the ledger lock', () => {
  it('a lock dated an hour in the future is taken over at once: the spent budget still stops show, 0 sent, exit 5', async () => {
    await spend(1);
    const before = exercises();
    mkdirSync(`${ledgerFile}.lock`);
    const future = new Date(Date.now() + 3_600_000);
    utimesSync(`${ledgerFile}.lock`, future, future);
    // The other ids are fetched side by side: none of them may go out later either.
    const { result: r, ms } = await timed(() => runToExit(['--budget', '1', 'show', 'Plank', 'Box_Jump', 'Burpee']));
    expect(r.code, r.stderr).toBe(5);
    expect(ms).toBeLessThan(8_000); // proper-lockfile (no longer used) waited ~22 s on such a lock, then sent uncounted
    expect(exercises() - before).toBe(0);
    expect(existsSync(`${ledgerFile}.lock`)).toBe(false);
  });

  it('with budget left, a future-dated lock does not stop the count: each request is counted before it goes', async () => {
    mkdirSync(join(home, '.cache', 'exercises'), { recursive: true });
    mkdirSync(`${ledgerFile}.lock`);
    const future = new Date(Date.now() + 3_600_000);
    utimesSync(`${ledgerFile}.lock`, future, future);
    const r = await run(['--budget', '2', 'show', 'Plank', 'Box_Jump', 'Burpee']);
    expect(r.code, r.stderr).toBe(5);
    expect(exercises(), r.stderr).toBe(2);
    expect(JSON.parse(readFileSync(ledgerFile, 'utf8')).counts).toMatchObject({ [new Date().toISOString().slice(0, 7)]: expect.anything() });
  });

  it('a lock kept fresh by a live holder is waited on, bounded, then the update fails naming the ledger', async () => {
    mkdirSync(`${ledgerFile}.lock`, { recursive: true });
    const keepFresh = setInterval(() => utimesSync(`${ledgerFile}.lock`, new Date(), new Date()), 100);
    try {
      const ledger = new Ledger(ledgerFile, { lockWaitMs: 600 });
      const { result, ms } = await timed(() => ledger.reserve('http://127.0.0.1:1', 'hash', { budget: 5 }).catch((err: unknown) => err));
      expect(result).toBeInstanceOf(BudgetUncheckedError);
      expect((result as BudgetUncheckedError).exitCode).toBe(5);
      expect((result as Error).message).toContain(ledgerFile);
      expect(ms).toBeGreaterThanOrEqual(550);
      expect(ms).toBeLessThan(3_000);
    } finally {
      clearInterval(keepFresh);
    }
  });

  it('a lock whose holder pid is gone is taken over at once, not after the stale age', async () => {
    mkdirSync(`${ledgerFile}.lock`, { recursive: true });
    const { hostname } = await import('node:os');
    writeFileSync(`${ledgerFile}.lock/owner`, JSON.stringify({ pid: 2 ** 22 + 17, host: hostname(), token: 'dead' }));
    const { result, ms } = await timed(() => new Ledger(ledgerFile, { lockWaitMs: 5_000 }).reserve('http://127.0.0.1:1', 'hash', { budget: 5 }));
    expect(result.requests).toBe(1);
    expect(ms).toBeLessThan(2_000);
  });
});

describe('a ledger that cannot be read or written', () => {
  it('the cache root is a file: with a budget nothing is sent, exit 5 naming the ledger', async () => {
    mkdirSync(join(home, '.cache'), { recursive: true });
    writeFileSync(join(home, '.cache', 'exercises'), 'not a directory');
    const r = await runToExit(['--budget', '5', 'show', 'Plank', 'Box_Jump']);
    expect(r.code, r.stderr).toBe(5);
    expect(exercises()).toBe(0);
    expect(r.stderr).toContain(ledgerFile);
    expect(r.stderr).toMatch(/budget cannot be checked/);
  });

  it('the ledger is a directory: nothing is sent, exit 5', async () => {
    mkdirSync(ledgerFile, { recursive: true });
    const r = await run(['--budget', '5', 'show', 'Plank']);
    expect(r.code, r.stderr).toBe(5);
    expect(exercises()).toBe(0);
    expect(r.stderr).toContain(ledgerFile);
  });

  it.skipIf(process.getuid?.() === 0)('a read-only cache directory: nothing is sent, exit 5 (skipped as root, who can write anyway)', async () => {
    await spend(1);
    chmodSync(join(home, '.cache', 'exercises'), 0o500);
    try {
      const r = await runToExit(['--budget', '5', 'show', 'Plank', 'Box_Jump', 'Burpee', 'Lunge']);
      expect(r.code, r.stderr).toBe(5);
      expect(exercises()).toBe(1);
      expect(r.stderr).toContain(ledgerFile);
    } finally {
      chmodSync(join(home, '.cache', 'exercises'), 0o700);
    }
  });

  it('without a budget an unwritable ledger never fails the command', async () => {
    mkdirSync(ledgerFile, { recursive: true });
    const r = await run(['show', 'Unbudgeted']);
    expect(r.code, r.stderr).toBe(0);
    expect(server.count(/^\/exercise\/Unbudgeted/)).toBe(1);
  });
});

describe('a corrupt ledger', () => {
  it('is recovered from the copy beside it, never reset to 0: the spent budget still stops the run', async () => {
    await spend(2);
    const before = exercises();
    writeFileSync(ledgerFile, '{"version":1,"counts":{ garbage');
    const r = await run(['--budget', '2', 'show', 'Plank']);
    expect(r.code, r.stderr).toBe(5);
    expect(exercises() - before).toBe(0);
    expect(r.stderr).toMatch(/recovered from the copy kept beside it/);
    const q = await run(['--budget', '2', 'quota', '--json']);
    expect(JSON.parse(q.stdout), q.stdout + q.stderr).toMatchObject({ requests: 2, remaining: 0 });
  });

  it('with no good copy and a budget, stops with exit 5 naming the file; quota --reset-month starts afresh', async () => {
    mkdirSync(join(home, '.cache', 'exercises'), { recursive: true });
    writeFileSync(ledgerFile, 'garbage');
    const r = await run(['--budget', '2', 'show', 'Plank']);
    expect(r.code, r.stderr).toBe(5);
    expect(exercises()).toBe(0);
    expect(r.stderr).toContain(ledgerFile);
    expect(r.stderr).toMatch(/quota --reset-month/);
    const reset = await run(['--budget', '2', 'quota', '--reset-month']);
    expect(reset.code, reset.stderr).toBe(0);
    expect(reset.stderr).toMatch(/it is now 0/);
    const again = await run(['--budget', '2', 'show', 'Plank']);
    expect(again.code, again.stderr).toBe(0);
    expect(exercises()).toBe(1);
  });

  it('quota --reset-month sets the month back to 0 for the connection in force', async () => {
    await spend(3);
    const reset = await run(['quota', '--reset-month', '--json']);
    expect(reset.code, reset.stderr).toBe(0);
    expect(reset.stderr).toMatch(/was 3; it is now 0/);
    expect(JSON.parse(reset.stdout)).toMatchObject({ requests: 0 });
  });
});
