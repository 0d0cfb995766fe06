/**
 * Several real processes at once (the built modules in dist/, as the CLI runs them): the
 * ledger loses no count and never passes a budget, and the cache store stays whole while
 * processes write the same and different keys.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Ledger } from '../../src/cache/ledger.js';
import { ResponseCache } from '../../src/cache/response-cache.js';
import { readEntry } from '../../src/cache/store-files.js';
import { builtModule } from './support.js';
import { tempDir } from '../helpers/temp.js';

const ORIGIN = 'http://127.0.0.1:1';
const HASH = '0011223344556677';

/** Runs `code` (an ES module body) in a fresh node process; resolves to its stdout. */
function runNode(code: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (b) => (out += b));
    child.stderr.on('data', (b) => (err += b));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`child exited ${code}: ${err}`))));
  });
}

function ledgerWorker(file: string, count: number, budget: number | null): string {
  const url = pathToFileURL(builtModule('cache/ledger.js')).href;
  return `
    const { Ledger } = await import(${JSON.stringify(url)});
    const ledger = new Ledger(${JSON.stringify(file)});
    let sent = 0, refused = 0;
    for (let i = 0; i < ${count}; i++) {
      try { await ledger.reserve(${JSON.stringify(ORIGIN)}, ${JSON.stringify(HASH)}, { budget: ${budget} }); sent++; }
      catch (err) { if (err.code === 'budget_exceeded') refused++; else throw err; }
    }
    process.stdout.write(JSON.stringify({ sent, refused }));`;
}

/**
 * Each test waits on processes of its own (over files of its own): the tests run side by side.
 * Where the CPU is starved the twelve processes share it, so the bound on each test is wider.
 */
const SIDE_BY_SIDE = { concurrent: true, timeout: 60_000 } as const;

describe('the ledger under concurrent processes', SIDE_BY_SIDE, () => {
  it('counts 4 processes × 50 requests as exactly 200', async () => {
    const file = join(tempDir(), 'ledger.json');
    const results = await Promise.all(Array.from({ length: 4 }, () => runNode(ledgerWorker(file, 50, null))));
    expect(results.map((r) => JSON.parse(r).sent)).toEqual([50, 50, 50, 50]);
    expect((await new Ledger(file).usage(ORIGIN, HASH)).requests).toBe(200);
  });

  it('lets exactly the budget through when 4 processes race for it', async () => {
    const file = join(tempDir(), 'ledger.json');
    const results = (await Promise.all(Array.from({ length: 4 }, () => runNode(ledgerWorker(file, 40, 101))))).map((r) => JSON.parse(r));
    expect(results.reduce((n, r) => n + r.sent, 0)).toBe(101);
    expect(results.reduce((n, r) => n + r.refused, 0)).toBe(59);
    expect(await new Ledger(file).usage(ORIGIN, HASH, { budget: 101 })).toMatchObject({ requests: 101, remaining: 0 });
  });
});

describe('the cache store under concurrent processes', SIDE_BY_SIDE, () => {
  it('keeps every entry whole when 4 processes write shared and own keys at once', async () => {
    const dir = join(tempDir(), 'http');
    const url = pathToFileURL(builtModule('cache/response-cache.js')).href;
    const worker = (n: number): string => `
      const { ResponseCache } = await import(${JSON.stringify(url)});
      const cache = ResponseCache.open(${JSON.stringify(dir)}, { log: (l) => { throw new Error(l); } });
      const writes = [];
      for (let i = 0; i < 30; i++) {
        writes.push(cache.put('shared ' + i, { i, body: 'x'.repeat(2000 + i) }, { now: 1000 + ${n} }));
        writes.push(cache.put('own ${n} ' + i, { n: ${n}, i }, { now: 1000 }));
        writes.push(cache.putRecord('scope', { id: 'R' + i, name: 'Record ' + i, by: ${n} }, { now: 1000 }));
      }
      const stored = await Promise.all(writes);
      process.stdout.write(String(stored.filter(Boolean).length));`;
    const stored = await Promise.all([0, 1, 2, 3].map((n) => runNode(worker(n))));
    expect(stored).toEqual(['90', '90', '90', '90']);

    const cache = ResponseCache.open(dir, { log: (line) => expect.fail(line) });
    const lookup = { now: 2000, ttlMs: 60_000 };
    for (let i = 0; i < 30; i++) {
      expect(await cache.get(`shared ${i}`, lookup)).toMatchObject({ status: 'fresh', body: { i, body: 'x'.repeat(2000 + i) } });
      for (const n of [0, 1, 2, 3]) expect(await cache.get(`own ${n} ${i}`, lookup)).toMatchObject({ status: 'fresh', body: { n, i } });
      const byId = await cache.getRecord('scope', `R${i}`, lookup);
      expect(byId).toMatchObject({ status: 'fresh', body: { id: `R${i}` } });
      // the file one of the processes renamed last is whole (size and digest checked)
      expect(readEntry(dir, `shared ${i}`).status).toBe('found');
    }
    expect((await cache.info()).entries).toBe(30 + 120 + 60);
  });
});
