/**
 * Listings that do not end as listings should: one that never ends (every page full, a new
 * cursor each time, the `total` always one page ahead), a cursor cycle, a full page with no
 * cursor, a `total` larger than what is served. `ids --all`, `download --all` and `mirror` stop
 * with a warning and exit 7, keeping the output so far, in bounded memory.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { listingMargin } from '../../src/api/paging.js';
import { type HostileServer, pngBytes, startHostileServer } from '../helpers/hostile-server.js';
import { cli } from './support.js';
import { tempDirsPerTest } from '../helpers/temp.js';

/** Pages of 25 from `first`: ids E<n>; `pagination(received)` says what follows. */
function listing(server: HostileServer, pagination: (received: number) => Record<string, unknown>): void {
  server.route(/^\/exercise\/(exerciseIds|query)/, (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const after = url.searchParams.get('after');
    const start = after === null ? 0 : Number(after.replace(/^c/, '').replace(/^E/, '')) + (after.startsWith('E') ? 1 : 0);
    const limit = Number(url.searchParams.get('limit') ?? 25);
    const exercises = Array.from({ length: limit }, (_, i) => ({ id: `E${start + i}`, name: `Exercise ${start + i}`, premiumImages: [] }));
    const body = Buffer.from(JSON.stringify({ exercises, pagination: pagination(start + limit) }));
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    res.end(body);
  });
}

describe('listings that do not end', () => {
  let server: HostileServer;
  const temp = tempDirsPerTest('endless-');
  beforeAll(async () => {
    server = await startHostileServer();
  });
  afterAll(async () => {
    await server.close();
  });
  afterEach(() => {
    server.reset();
  });

  it('ids --all against a listing that never ends (its total always a page ahead): stops at total + margin, exit 7, rows so far written', async () => {
    listing(server, (received) => ({ total: received + 25, next: `c${received}` }));
    const r = await cli(server, ['ids', '--all', '--limit', '25', '--format', 'tsv']);
    expect(r.code, r.stderr).toBe(7);
    const first = 50; // the first page's total
    const rows = r.stdout.trim().split('\n');
    expect(rows.length).toBeGreaterThanOrEqual(first + listingMargin(first));
    expect(rows.length).toBeLessThanOrEqual(first + listingMargin(first) + 25);
    expect(r.stderr).toMatch(/The listing stopped early: the listing went on past \d+ items although it announced 50/);
  });

  it('ids --all on a cursor cycle (A → B → A): exit 7 with the rows so far', async () => {
    listing(server, (received) => ({ total: 1000, next: received >= 75 ? 'c25' : `c${received}` }));
    const r = await cli(server, ['ids', '--all', '--limit', '25', '--format', 'tsv']);
    expect(r.code, r.stderr).toBe(7);
    expect(r.stdout.trim().split('\n')).toHaveLength(75);
    expect(r.stderr).toContain('the listing gave the cursor "c25" a second time (a loop), after 75 items');
  });

  it('ids --all on the same cursor every time: exit 7 after the second page', async () => {
    listing(server, () => ({ total: 1000, next: 'c25' }));
    const r = await cli(server, ['ids', '--all', '--limit', '25', '--format', 'tsv']);
    expect(r.code).toBe(7);
    expect(r.stdout.trim().split('\n')).toHaveLength(50);
  });

  it('ids --all on a full page with no cursor and no id to go on: exit 7', async () => {
    server.route(/^\/exercise\/exerciseIds/, (_req, res) => {
      const body = Buffer.from(
        JSON.stringify({ exercises: Array.from({ length: 25 }, (_, i) => ({ id: `E${i}`, name: 'x' })), pagination: { total: 100, next: '' } }),
      );
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
      res.end(body);
    });
    const r = await cli(server, ['ids', '--all', '--limit', '25', '--format', 'tsv']);
    // The last id is the fallback cursor; the same page again makes it a loop. Either way: exit 7.
    expect(r.code).toBe(7);
    expect(r.stdout.trim().split('\n').length).toBeGreaterThanOrEqual(25);
  });

  it('ids --all when total is larger than what is served: exit 7 naming both numbers', async () => {
    listing(server, (received) => ({ total: 500, next: received >= 50 ? null : `c${received}` }));
    const r = await cli(server, ['ids', '--all', '--limit', '25', '--format', 'tsv']);
    expect(r.code).toBe(7);
    expect(r.stdout.trim().split('\n')).toHaveLength(50);
    expect(r.stderr).toContain('the listing ended after 50 items although it announced 500');
  });

  it('download --all streams: the files of the first page are fetched before the second page is served', async () => {
    const dir = temp('streamed-');
    const pageOf = (start: number, count: number, total: number) => ({
      exercises: Array.from({ length: count }, (_, i) => ({ id: `E${start + i}`, name: `Exercise ${start + i}`, premiumImages: ['start'] })),
      pagination: { total, next: start + count < total ? `c${start + count}` : null },
    });
    server.route(/^\/exercise\/exerciseIds/, async (req, res) => {
      const after = new URL(req.url ?? '/', 'http://x').searchParams.get('after');
      if (after !== null) {
        // The second page waits for a media request: a command that collects the whole listing first never gets it.
        const until = Date.now() + 5000;
        while (server.count(/^\/images\//) === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
        if (server.count(/^\/images\//) === 0) {
          res.writeHead(400, { 'content-type': 'application/json' });
          return void res.end('{"error":{"code":"bad_request","message":"media first"}}');
        }
      }
      const body = Buffer.from(JSON.stringify(after === null ? pageOf(0, 25, 30) : pageOf(25, 5, 30)));
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
      res.end(body);
    });
    server.route(/^\/images\//, (_req, res) => {
      const body = pngBytes(200);
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': body.length });
      res.end(body);
    });
    const r = await cli(server, ['download', '--all', '--images', '--dir', dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(server.count(/^\/images\//)).toBe(30);
    expect(r.stderr).toContain('Fetched 30 files');
  }, 30_000);

  it('download --all against a listing that never ends: stops with exit 7 in bounded memory', async () => {
    const dir = temp();
    // Announces 10,000 and keeps going: stopped at 10,000 + 1,000.
    listing(server, (received) => ({ total: Math.max(10_000, received + 25), next: `c${received}` }));
    global.gc?.();
    const before = process.memoryUsage().heapUsed;
    let peak = before;
    const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 50);
    try {
      const r = await cli(server, ['download', '--all', '--dir', dir]);
      expect(r.code, r.stderr).toBe(7);
      expect(r.stderr).toMatch(/the listing went on past 11000 items although it announced 10000/);
    } finally {
      clearInterval(timer);
    }
    expect(server.count(/exerciseIds/)).toBe(11_000 / 25);
    expect(peak - before).toBeLessThan(200 * 1024 * 1024);
  }, 60_000);
});
