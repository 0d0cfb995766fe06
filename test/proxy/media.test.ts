/**
 * Media pulled through into the catalogue layout: streamed to the first client and to disk at
 * once, answered from disk afterwards (Range too), a fill that outlives its client, a bad
 * upstream file never put in place, and a shutdown leaving only a .part, which the next fill
 * resumes (Range with If-Range), or starts over when the upstream file changed.
 */
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { get, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { sampleCatalogueDir } from '../../src/server/sandbox.js';
import { type CatalogueServer, startServer } from '../helpers/server.js';
import { ALICE, type ProxyFixture, UPSTREAM_KEY, stopFixtures, startProxy } from './proxy-helpers.js';
import { tempDir } from '../helpers/temp.js';

const BIG = 'Push_Up';
const BIG_PATH = `/images/${BIG}/premium/start.png`;
let catalogueDir: string;
let bigBytes: Buffer;

beforeAll(() => {
  // The sample catalogue with one large image, so a fill takes several chunks.
  catalogueDir = tempDir('exercises-proxy-upstream-');
  cpSync(sampleCatalogueDir(), catalogueDir, { recursive: true });
  bigBytes = Buffer.alloc(3 * 1024 * 1024);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bigBytes);
  for (let i = 8; i < bigBytes.length; i++) bigBytes[i] = (i * 31) & 0xff;
  writeFileSync(join(catalogueDir, 'images', BIG, 'premium', 'start.png'), bigBytes);
});
afterAll(() => rmSync(catalogueDir, { recursive: true, force: true }));

let f: ProxyFixture | undefined;
let upstream: CatalogueServer | undefined;
afterEach(async () => {
  await stopFixtures(f, upstream);
  [f, upstream] = [undefined, undefined];
});

/** An upstream whose answer for `path` sends half the file, pauses `pauseMs`, then the rest (or drops the connection). */
async function slowUpstream(path: string, pauseMs: number, ending: 'rest' | 'drop' = 'rest'): Promise<CatalogueServer> {
  return startServer({
    dir: catalogueDir,
    intercept: (req: IncomingMessage, res: ServerResponse) => {
      if (req.url !== path) return false;
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(bigBytes.length) });
      const half = bigBytes.length / 2;
      res.write(bigBytes.subarray(0, half));
      setTimeout(() => (ending === 'rest' ? res.end(bigBytes.subarray(half)) : res.destroy()), pauseMs);
      return true;
    },
  });
}

function mediaFile(root: string): string {
  return join(root, 'media', 'images', BIG, 'premium', 'start.png');
}

function partsIn(root: string): string[] {
  const dir = join(root, 'media', 'images', BIG, 'premium');
  return existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith('.part')) : [];
}

describe('media pulled through', () => {
  test('a miss is streamed to the client and into the catalogue layout; the next is answered from disk, with Range', async () => {
    upstream = await startServer({ dir: catalogueDir });
    f = await startProxy({ upstream });
    const first = await f.get(BIG_PATH);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await first.arrayBuffer()).equals(bigBytes)).toBe(true);
    expect(readFileSync(mediaFile(f.root)).equals(bigBytes)).toBe(true);
    expect(partsIn(f.root)).toEqual([]);
    expect(f.upstreamCount()).toBe(1);

    const ranged = await f.get(BIG_PATH, ALICE, { range: 'bytes=100-199' });
    expect(ranged.status).toBe(206);
    expect(Buffer.from(await ranged.arrayBuffer()).equals(bigBytes.subarray(100, 200))).toBe(true);
    expect(f.upstreamCount()).toBe(1);
    expect(f.log.map((l) => l.split(' ')[5])).toEqual(['miss', 'hit']);
  });

  test('concurrent requests for one file share one fill', async () => {
    upstream = await slowUpstream(BIG_PATH, 200);
    f = await startProxy({ upstream });
    const proxy = f;
    const bodies = await Promise.all(Array.from({ length: 5 }, () => proxy.get(BIG_PATH).then(async (r) => Buffer.from(await r.arrayBuffer()))));
    for (const body of bodies) expect(body.equals(bigBytes)).toBe(true);
    expect(f.upstreamCount()).toBe(1);
  });

  test('a client that disconnects mid-file does not stop the fill: the next client gets it from disk', async () => {
    upstream = await slowUpstream(BIG_PATH, 400);
    f = await startProxy({ upstream });
    const proxy = f;
    await new Promise<void>((resolve, reject) => {
      const req = get(`${proxy.proxy.url}${BIG_PATH}`, { headers: { 'x-api-key': ALICE } }, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', () => {});
      setTimeout(() => reject(new Error('no data')), 10_000);
    });
    for (let i = 0; i < 100 && !existsSync(mediaFile(proxy.root)); i++) await new Promise((r) => setTimeout(r, 50));
    expect(readFileSync(mediaFile(proxy.root)).equals(bigBytes)).toBe(true);
    const next = await proxy.get(BIG_PATH);
    expect(Buffer.from(await next.arrayBuffer()).equals(bigBytes)).toBe(true);
    expect(proxy.upstreamCount()).toBe(1);
  });

  test('an upstream file cut short is never put in place, and the client does not get a complete answer', async () => {
    upstream = await slowUpstream(BIG_PATH, 50, 'drop');
    f = await startProxy({ upstream });
    await expect(f.get(BIG_PATH).then((r) => r.arrayBuffer())).rejects.toThrow();
    await new Promise((r) => setTimeout(r, 100));
    expect(existsSync(mediaFile(f.root))).toBe(false);
    expect(partsIn(f.root)).toEqual([]);
  });

  test('shutdown lets a fill run for the grace period, then leaves a .part and no file under the final name', async () => {
    upstream = await slowUpstream(BIG_PATH, 5_000);
    f = await startProxy({ upstream, graceMs: 200 });
    const pending = f
      .get(BIG_PATH)
      .then((r) => r.arrayBuffer())
      .catch(() => 'failed');
    for (let i = 0; i < 100 && partsIn(f.root).length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    await f.proxy.close();
    expect(await pending).toBe('failed');
    expect(existsSync(mediaFile(f.root))).toBe(false);
    expect(partsIn(f.root)).toHaveLength(1);
  });

  describe('a .part left by a shutdown', () => {
    const upstreamFile = (): string => join(catalogueDir, 'images', BIG, 'premium', 'start.png');
    afterEach(() => writeFileSync(upstreamFile(), bigBytes));

    /**
     * An upstream whose first whole GET of the file sends its real validators and half its
     * bytes, then nothing more; every other request is the catalogue server's own (Range too).
     */
    async function stallingUpstream(): Promise<{ server: CatalogueServer; etag: string }> {
      let stalled = false;
      const server = await startServer({
        dir: catalogueDir,
        intercept: (req: IncomingMessage, res: ServerResponse) => {
          if (req.url !== BIG_PATH || req.method !== 'GET' || req.headers.range !== undefined || stalled) return false;
          stalled = true;
          res.writeHead(200, {
            'content-type': 'image/png',
            'content-length': String(bigBytes.length),
            etag: validators.etag,
            'last-modified': validators.lastModified,
          });
          res.write(bigBytes.subarray(0, bigBytes.length / 2));
          return true;
        },
      });
      const head = await fetch(`${server.url}${BIG_PATH}`, { method: 'HEAD', headers: { 'x-api-key': UPSTREAM_KEY } });
      const validators = { etag: head.headers.get('etag')!, lastModified: head.headers.get('last-modified')! };
      expect(validators.etag).toMatch(/^"/);
      return { server, etag: validators.etag };
    }

    /** A fill of the big file stopped by shutdown once half of it is on disk; the media directory it leaves. */
    async function stoppedFill(fixture: ProxyFixture): Promise<string> {
      const pending = fixture
        .get(BIG_PATH)
        .then((r) => r.arrayBuffer())
        .catch(() => 'failed');
      const written = (): number =>
        partsIn(fixture.root).reduce((n, name) => n + statSync(join(fixture.root, 'media', 'images', BIG, 'premium', name)).size, 0);
      for (let i = 0; i < 200 && written() < bigBytes.length / 2; i++) await new Promise((r) => setTimeout(r, 20));
      await fixture.proxy.close();
      expect(await pending).toBe('failed');
      const dir = join(fixture.root, 'media', 'images', BIG, 'premium');
      expect(readdirSync(dir).filter((n) => n.endsWith('.part.resume'))).toHaveLength(1);
      return join(fixture.root, 'media');
    }

    test('is resumed by the next fill: Range from its length, If-Range on the stored ETag, the whole file in place', async () => {
      const stalling = await stallingUpstream();
      upstream = stalling.server;
      f = await startProxy({ upstream, graceMs: 200 });
      const media = await stoppedFill(f);

      const next = await startProxy({ upstream, dir: media });
      try {
        const res = await next.get(BIG_PATH);
        expect(res.status).toBe(200);
        expect(Buffer.from(await res.arrayBuffer()).equals(bigBytes)).toBe(true);
        const resumed = upstream.requests.filter((r) => r.path === BIG_PATH).at(-1)!;
        expect(resumed).toMatchObject({ status: 206, range: `bytes=${bigBytes.length / 2}-`, ifRange: stalling.etag });
        expect(readFileSync(mediaFile(f.root)).equals(bigBytes)).toBe(true);
        expect(readdirSync(join(media, 'images', BIG, 'premium')).filter((n) => n.includes('.part'))).toEqual([]);
      } finally {
        await next.stop();
      }
    });

    test('starts over when the upstream file changed since: If-Range fails, the new file comes whole', async () => {
      upstream = (await stallingUpstream()).server;
      f = await startProxy({ upstream, graceMs: 200 });
      const media = await stoppedFill(f);
      const changed = Buffer.from(bigBytes);
      changed.fill(7, 1000, 2000);
      writeFileSync(upstreamFile(), changed);
      const later = new Date(Date.now() + 120_000);
      utimesSync(upstreamFile(), later, later);

      const next = await startProxy({ upstream, dir: media });
      try {
        const res = await next.get(BIG_PATH);
        expect(res.status).toBe(200);
        expect(Buffer.from(await res.arrayBuffer()).equals(changed)).toBe(true);
        expect(upstream.requests.filter((r) => r.path === BIG_PATH).at(-1)).toMatchObject({ status: 200, range: `bytes=${bigBytes.length / 2}-` });
        expect(readFileSync(mediaFile(f.root)).equals(changed)).toBe(true);
        expect(readdirSync(join(media, 'images', BIG, 'premium')).filter((n) => n.includes('.part'))).toEqual([]);
      } finally {
        await next.stop();
      }
    });
  });
});
