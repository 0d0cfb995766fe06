/**
 * The proxy against hostile upstreams and clients: an upstream echoing the proxy's key every
 * way it can (never passed on, logged nor stored), client keys in the query string (masked in
 * the log), a client that leaves early (not a hit), a dripping upstream (a whole-answer limit,
 * coalesced waiters too), shutdown within its grace, stale `.part` files, URL fragments, and a
 * FIFO among the catalogue's media.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { request, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { carriesKey, scrubAnswer } from '../../src/proxy/key-scrub.js';
import { STALE_PART_MS } from '../../src/proxy/media-parts.js';
import { redactorFor } from '../../src/util/text.js';
import { type CatalogueServer, startServer } from '../helpers/server.js';
import { tempDir } from '../helpers/temp.js';
import { runCli } from '../helpers/run-cli.js';
import { ALICE, GUEST, type ProxyFixture, stopFixtures, UPSTREAM_KEY, startProxy } from './proxy-helpers.js';

let f: ProxyFixture | undefined;
let upstream: CatalogueServer | undefined;
afterEach(async () => {
  await stopFixtures(f, upstream);
  [f, upstream] = [undefined, undefined];
});

/** `text` with JSON's `\uXXXX` escapes decoded, so a key spelled that way is found too. */
function decoded(text: string): string {
  return text.replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** The key spelled with `\u` escapes for every other character. */
const ESCAPED_KEY = [...UPSTREAM_KEY].map((c, i) => (i % 2 === 0 ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c)).join('');

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** Waits until `check` holds (polling), or fails after `ms`. */
async function until(check: () => boolean, ms = 3_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A GET with the raw target as given (fetch() would drop a fragment before sending). */
function rawGet(url: string, target: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(url);
    const req = request({ host: hostname, port, path: target, headers: { 'x-api-key': ALICE } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

/** An upstream answer for `path` of `bytes` bytes, one byte every `everyMs`; `started` counts the answers begun. */
function dripping(path: string, bytes: number, everyMs: number) {
  const handler = (req: IncomingMessage, res: ServerResponse): boolean => {
    if (req.url !== path) return false;
    handler.started += 1;
    const body = `{"id":"${'x'.repeat(bytes - 10)}"}`.padEnd(bytes, ' ');
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) });
    let i = 0;
    const timer = setInterval(() => {
      if (res.destroyed || i >= body.length) return void clearInterval(timer);
      res.write(body[i++]);
      if (i === body.length) res.end();
    }, everyMs);
    res.on('close', () => clearInterval(timer));
    return true;
  };
  handler.started = 0;
  return handler;
}

describe('the proxy never carries its upstream key', () => {
  test('an upstream echoing the key in a 200 body, its headers and a \\u-escaped 404 body: no answer, log line or cache file holds it', async () => {
    const echo = `"${UPSTREAM_KEY}"`;
    upstream = await startServer({
      intercept: (req: IncomingMessage, res: ServerResponse) => {
        const headers = { etag: echo, 'content-language': UPSTREAM_KEY, vary: `x-${UPSTREAM_KEY}`, 'last-modified': UPSTREAM_KEY };
        if (req.url === '/exercise/Echo') {
          const body = `{"id":"Echo","name":"by ${UPSTREAM_KEY}","note":"${ESCAPED_KEY}","${ESCAPED_KEY}":1,"premiumImages":["${UPSTREAM_KEY}"]}`;
          res.writeHead(200, { ...headers, 'content-type': 'application/json' }).end(body);
          return true;
        }
        if (req.url === '/exercise/Gone') {
          res.writeHead(404, { ...headers, 'content-type': 'application/json' }).end(`{"error":{"code":"not_found","message":"no such key ${ESCAPED_KEY}"}}`);
          return true;
        }
        return false;
      },
    });
    f = await startProxy({ upstream });
    const seen: string[] = [];
    for (const key of [ALICE, GUEST, ALICE, GUEST]) {
      for (const path of ['/exercise/Echo', '/exercise/Gone']) {
        const res = await f.get(path, key);
        seen.push(`${res.status} ${JSON.stringify([...res.headers])} ${await res.text()}`);
      }
    }
    expect(seen.filter((s) => s.startsWith('200 '))).toHaveLength(4);
    expect(seen.filter((s) => s.startsWith('404 '))).toHaveLength(4);
    // The stored answer is the redacted one: the second round was a hit.
    expect(f.log.filter((l) => l.includes('/exercise/Echo')).map((l) => l.split(' ')[5])).toEqual(['miss', 'hit', 'hit', 'hit']);
    for (const text of [...seen, ...f.log, ...f.warnings]) expect(decoded(text)).not.toContain(UPSTREAM_KEY);
    const files = filesUnder(join(f.root, 'http'));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect(decoded(readFileSync(file, 'latin1'))).not.toContain(UPSTREAM_KEY);
  });

  test('the check before storing sees the key however the JSON spells it, and the scrubbed answer passes it', () => {
    const redact = redactorFor(UPSTREAM_KEY);
    const answer = { status: 200, headers: { etag: '"x"' }, body: Buffer.from(`{"a":["${ESCAPED_KEY}"]}`) };
    expect(carriesKey(answer, redact)).toBe(true);
    expect(carriesKey({ ...answer, body: Buffer.from('{"a":1}'), headers: { vary: UPSTREAM_KEY } }, redact)).toBe(true);
    const scrubbed = scrubAnswer(answer, redact);
    expect(carriesKey(scrubbed, redact)).toBe(false);
    expect(JSON.parse(scrubbed.body.toString('utf8'))).toEqual({ a: ['***'] });
    // An answer without the key keeps its exact bytes.
    const clean = Buffer.from('{ "a" : "\\u0041" }');
    expect(scrubAnswer({ ...answer, body: clean }, redact).body).toBe(clean);
  });
});

describe('the access log', () => {
  test('a client key in the query string is masked, as sent or percent-encoded', async () => {
    f = await startProxy();
    await f.get(`/exercise/query?api_key=${GUEST}&limit=1`);
    await f.get(`/exercise/query?limit=2&key=${encodeURIComponent(ALICE).replace('-', '%2D')}`);
    expect(f.log).toHaveLength(2);
    for (const line of f.log) {
      expect(line).not.toContain(GUEST);
      expect(decodeURIComponent(line)).not.toContain(ALICE);
    }
    expect(f.log[0]).toContain('api_key=***&limit=1');
    expect(f.log[1]).toContain('limit=2&key=***');
  });

  test('a client that leaves before its answer is logged with status `-` and not counted as a hit', async () => {
    upstream = await startServer({
      intercept: (req: IncomingMessage, res: ServerResponse) => {
        if (req.url !== '/exercise/Plank') return false;
        setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"Plank"}'), 400);
        return true;
      },
    });
    f = await startProxy({ upstream });
    const leaving = new AbortController();
    const early = fetch(`${f.proxy.url}/exercise/Plank`, { headers: { 'x-api-key': ALICE }, signal: leaving.signal }).catch(() => 'aborted');
    setTimeout(() => leaving.abort(), 100);
    expect(await early).toBe('aborted');
    await until(() => f!.log.length === 1);
    expect(f.log[0]!.split(' ').slice(4, 6)).toEqual(['-', '-']);
    expect(f.proxy.stats.all.outcomes).toEqual({ hit: 0, miss: 0, revalidated: 0, coalesced: 0, stale: 0 });
    // The answer it left was still fetched (once): the next client shares it, a hit or (under load) a coalesced wait.
    expect((await f.get('/exercise/Plank')).status).toBe(200);
    expect(f.log[1]!.split(' ')[4]).toBe('200');
    expect(['hit', 'coalesced']).toContain(f.log[1]!.split(' ')[5]);
    expect(f.upstreamCount()).toBe(1);
  });
});

describe('a dripping upstream', () => {
  test('the whole-answer limit ends it for every waiter, coalesced ones too: 504 within the limit, one upstream request', async () => {
    // 78 bytes at one every 100 ms: 7.8 s, though no byte is ever 400 ms late (undici's idle timeouts never trip).
    const drip = dripping('/exercise/Drip', 78, 100);
    upstream = await startServer({ intercept: drip });
    f = await startProxy({ upstream, upstreamTimeoutMs: 400 }); // whole-answer limit: 3 × 400 ms
    const started = Date.now();
    const statuses = await Promise.all([1, 2, 3].map(() => f!.get('/exercise/Drip').then((r) => r.status)));
    const elapsed = Date.now() - started;
    expect(statuses).toEqual([504, 504, 504]);
    expect(elapsed).toBeLessThan(3_000);
    expect(drip.started).toBe(1);
    expect(f.log.map((l) => l.split(' ')[4])).toEqual(['504', '504', '504']);
  }, 20_000);
});

describe('shutdown', () => {
  test('ends within its 2 s grace with a dripping JSON answer and a media fill in flight, without a spurious warning', async () => {
    const image = Buffer.alloc(256 * 1024);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(image);
    const json = dripping('/exercise/Drip', 78, 100);
    let mediaStarted = 0;
    upstream = await startServer({
      intercept: (req: IncomingMessage, res: ServerResponse) => {
        if (req.url === '/images/Plank/premium/slow.png') {
          mediaStarted += 1;
          res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(image.length) });
          res.write(image.subarray(0, 1024));
          return true; // and nothing more, ever
        }
        return json(req, res);
      },
    });
    f = await startProxy({ upstream, upstreamTimeoutMs: 5_000, graceMs: 2_000 });
    const pending = [f.get('/exercise/Drip'), f.get('/images/Plank/premium/slow.png')].map((p) => p.then((r) => r.arrayBuffer()).catch(() => 'failed'));
    await until(() => json.started === 1 && mediaStarted === 1);
    await new Promise((r) => setTimeout(r, 100));
    const started = Date.now();
    await f.proxy.close();
    expect(Date.now() - started).toBeLessThan(2_500);
    await Promise.all(pending);
    expect(f.warnings.filter((w) => /Cannot write headers|ERR_HTTP_HEADERS_SENT/.test(w))).toEqual([]);
    // Work cut by the shutdown is not reported as the proxy failing.
    expect(f.warnings.filter((w) => w.startsWith('proxy:'))).toEqual([]);
  }, 20_000);
});

describe('the media directory', () => {
  test('a stale .part of ours is removed at start; a fresh one and files not ours stay', async () => {
    const dir = tempDir('exercises-proxy-media-');
    const premium = join(dir, 'images', 'Plank', 'premium');
    mkdirSync(premium, { recursive: true });
    const old = (Date.now() - STALE_PART_MS - 60_000) / 1000;
    const stale = join(premium, 'start.png.0123456789ab.part');
    const fresh = join(premium, 'start.png.ba9876543210.part');
    const notOurs = join(premium, 'notes.part');
    for (const path of [stale, fresh, notOurs]) writeFileSync(path, 'x');
    utimesSync(stale, old, old);
    utimesSync(notOurs, old, old);
    f = await startProxy({ dir });
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(fresh)).toBe(true);
    expect(existsSync(notOurs)).toBe(true);
  });

  test.skipIf(process.platform === 'win32')(
    'five requests for a FIFO among the media: each refused, /-/status still answers, and close() ends within 2 s',
    async () => {
      const dir = tempDir('exercises-proxy-fifo-');
      const premium = join(dir, 'images', 'Plank', 'premium');
      mkdirSync(premium, { recursive: true });
      execFileSync('mkfifo', [join(premium, 'start.png')]);
      f = await startProxy({ dir });
      const statuses = Promise.all([1, 2, 3, 4, 5].map(() => f!.get('/images/Plank/premium/start.png').then((r) => r.status)));
      const status = await f.get('/-/status');
      expect(status.status).toBe(200);
      expect(await statuses).toEqual([404, 404, 404, 404, 404]);
      const started = Date.now();
      await f.proxy.close();
      expect(Date.now() - started).toBeLessThan(2_000);
    },
  );
});

describe('the command, as an operator runs it', () => {
  test.skipIf(process.platform === 'win32')(
    'serve --upstream with five requests blocked on a FIFO among its media: /-/status answers, and SIGTERM ends it within 2 s',
    async () => {
      upstream = await startServer();
      const dir = tempDir('exercises-proxy-fifo-cli-');
      const premium = join(dir, 'images', 'Plank', 'premium');
      mkdirSync(premium, { recursive: true });
      execFileSync('mkfifo', [join(premium, 'start.png')]);
      const seen: { statuses?: number[]; status?: number; killedAt?: number } = {};
      const result = await runCli(['serve', '--upstream', upstream.url, dir, '--port', '0', '--key', `${ALICE}:premium`], {
        env: { EXERCISES_UPSTREAM_KEY: UPSTREAM_KEY },
        timeoutMs: 20_000,
        onSpawn: (child) => {
          let out = '';
          child.stdout!.on('data', (chunk: Buffer) => {
            out += chunk.toString();
            const url = /Listening on (\S+)/.exec(out)?.[1];
            if (!url || seen.killedAt !== undefined || seen.statuses) return;
            seen.statuses = [];
            const get = (path: string): Promise<number> => fetch(`${url}${path}`, { headers: { 'x-api-key': ALICE } }).then((r) => r.status);
            const blocked = [1, 2, 3, 4, 5].map(() => get('/images/Plank/premium/start.png').then((s) => void seen.statuses!.push(s)));
            void get('/-/status')
              .then((s) => (seen.status = s))
              .finally(() => {
                void Promise.allSettled(blocked).then(() => {
                  seen.killedAt = Date.now();
                  child.kill('SIGTERM');
                });
              });
          });
        },
      });
      const endedAfter = Date.now() - seen.killedAt!;
      expect(result.signal, result.stderr).not.toBe('SIGKILL');
      expect(seen.status).toBe(200);
      expect(seen.statuses).toEqual([404, 404, 404, 404, 404]);
      expect(endedAfter).toBeLessThan(2_000);
    },
    30_000,
  );
});

describe('cache keys', () => {
  test('the URL fragment is never part of one: two fragments of one path cost one upstream request', async () => {
    f = await startProxy();
    expect(await rawGet(f.proxy.url, '/exercise/Plank#one')).toBe(200);
    expect(await rawGet(f.proxy.url, '/exercise/Plank#two')).toBe(200);
    expect(f.upstreamCount()).toBe(1);
    expect(f.log.map((l) => l.split(' ')[5])).toEqual(['miss', 'hit']);
  });
});
