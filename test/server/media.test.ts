import { copyFileSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleCatalogueDir } from '../../src/server/sandbox.js';
import { startServer, type CatalogueServer } from '../helpers/server.js';
import { errorOf, get, rawExchange } from './support.js';
import { tempDir } from '../helpers/temp.js';

const IMAGE = join(sampleCatalogueDir(), 'images', 'Plank', 'premium', 'start.png');
const VIDEO = join(sampleCatalogueDir(), 'videos', 'Plank', 'premium', 'demo.mp4');
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

let server: CatalogueServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

describe('media files', () => {
  it('serves a premium image with its headers', async () => {
    const bytes = readFileSync(IMAGE);
    const res = await get(server, '/images/Plank/premium/start.png');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-length']).toBe(String(bytes.length));
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.headers.etag).toMatch(/^"[^"]+"$/);
    expect(res.headers['last-modified']).toBeTruthy();
    expect(res.body.equals(bytes)).toBe(true);
    expect(res.body.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
  });

  it('serves a premium video', async () => {
    const bytes = readFileSync(VIDEO);
    const res = await get(server, '/videos/Plank/premium/demo.mp4');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('video/mp4');
    expect(res.headers['content-length']).toBe(String(bytes.length));
    expect(res.body.equals(bytes)).toBe(true);
    expect(res.body.toString('latin1', 4, 8)).toBe('ftyp');
  });

  it('ships valid media for every listed premium image and video of the sample', async () => {
    const lines = readFileSync(join(sampleCatalogueDir(), 'exercises.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    let checked = 0;
    for (const e of lines) {
      for (const name of e.premiumImages ?? []) {
        const res = await get(server, `/images/${e.id}/premium/${encodeURIComponent(name)}.png`);
        expect(res.status, `${e.id}/${name}`).toBe(200);
        expect(res.body.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
        checked++;
      }
      for (const name of e.premiumVideos ?? []) {
        const res = await get(server, `/videos/${e.id}/premium/${encodeURIComponent(name)}.mp4`);
        expect(res.status, `${e.id}/${name}`).toBe(200);
        expect(res.body.toString('latin1', 4, 8)).toBe('ftyp');
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(36);
  });

  it('answers HEAD with the headers only', async () => {
    const res = await get(server, '/videos/Plank/premium/demo.mp4', { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers['content-length']).toBe(String(statSync(VIDEO).size));
    expect(res.body.length).toBe(0);
  });

  it.each([
    ['bytes=0-9', 0, 9],
    ['bytes=10-', 10, -1],
    ['bytes=-5', -5, -1],
    ['bytes=3-3', 3, 3],
    ['bytes=0-99999999', 0, -1],
  ])('answers Range %s with 206 and the slice', async (range, from, to) => {
    const bytes = readFileSync(VIDEO);
    const start = from < 0 ? bytes.length + from : from;
    const end = to < 0 ? bytes.length - 1 : to;
    const res = await get(server, '/videos/Plank/premium/demo.mp4', { headers: { Range: range } });
    expect(res.status).toBe(206);
    expect(res.headers['content-range']).toBe(`bytes ${start}-${end}/${bytes.length}`);
    expect(res.headers['content-length']).toBe(String(end - start + 1));
    expect(res.body.equals(bytes.subarray(start, end + 1))).toBe(true);
  });

  it.each(['bytes=99999999-', 'bytes=abc', 'bytes=5-2', 'items=0-1', 'bytes='])('answers 416 to Range %s', async (range) => {
    const size = statSync(IMAGE).size;
    const res = await get(server, '/images/Plank/premium/start.png', { headers: { Range: range } });
    expect(res.status).toBe(416);
    expect(res.headers['content-range']).toBe(`bytes */${size}`);
    expect(errorOf(res).code).toBe('range_not_satisfiable');
  });

  it('answers several disjoint ranges with the whole file', async () => {
    const res = await get(server, '/images/Plank/premium/start.png', { headers: { Range: 'bytes=0-1,10-11' } });
    expect(res.status).toBe(200);
    expect(res.body.equals(readFileSync(IMAGE))).toBe(true);
  });

  it('honours If-Range: the current ETag or date gives 206, another validator the full file', async () => {
    const bytes = readFileSync(VIDEO);
    const first = await get(server, '/videos/Plank/premium/demo.mp4');
    const etag = first.headers.etag as string;
    const lastModified = first.headers['last-modified'] as string;
    const matching = await get(server, '/videos/Plank/premium/demo.mp4', { headers: { Range: 'bytes=100-', 'If-Range': etag } });
    expect(matching.status).toBe(206);
    expect(matching.body.equals(bytes.subarray(100))).toBe(true);
    const byDate = await get(server, '/videos/Plank/premium/demo.mp4', { headers: { Range: 'bytes=100-', 'If-Range': lastModified } });
    expect(byDate.status).toBe(206);
    for (const stale of ['"stale-etag"', `W/${etag}`, 'Thu, 01 Jan 1970 00:00:00 GMT']) {
      const res = await get(server, '/videos/Plank/premium/demo.mp4', { headers: { Range: 'bytes=100-', 'If-Range': stale } });
      expect(res.status, stale).toBe(200);
      expect(res.body.equals(bytes)).toBe(true);
    }
    const recorded = server.requests.filter((r) => r.ifRange === '"stale-etag"');
    expect(recorded).toEqual([expect.objectContaining({ range: 'bytes=100-', status: 200 })]);
  });

  it('keeps the ETag stable and answers If-None-Match with 304', async () => {
    const a = await get(server, '/images/Plank/premium/end.png');
    const b = await get(server, '/images/Plank/premium/end.png');
    expect(a.headers.etag).toBe(b.headers.etag);
    expect(a.headers.etag).not.toBe((await get(server, '/images/Plank/premium/start.png')).headers.etag);
    const cached = await get(server, '/images/Plank/premium/end.png', { headers: { 'If-None-Match': a.headers.etag as string } });
    expect(cached.status).toBe(304);
    expect(cached.body.length).toBe(0);
  });

  it('answers 404 for media that do not exist', async () => {
    for (const path of [
      '/images/Plank/premium/middle.png',
      '/images/Plank/premium/start.jpg',
      '/images/Plank/premium/start',
      '/images/Plank/premium/demo.mp4',
      '/videos/Plank/premium/start.png',
      '/videos/Face_Pull/premium/demo.mp4',
      '/images/No_Such_Exercise/premium/start.png',
      '/images/Plank/premium/.png',
    ]) {
      const res = await get(server, path);
      expect(res.status, path).toBe(404);
      expect(errorOf(res).code).toBe('not_found');
    }
  });
});

describe('path escapes', () => {
  const root = tempDir('exercises-escape-');
  const dir = join(root, 'catalogue');
  let escapes: CatalogueServer;
  const SECRET = 'SECRET-OUTSIDE-THE-CATALOGUE';

  beforeAll(async () => {
    // <root>/outside/secret.png and <root>/catalogue/{images,videos}/..., with a symbolic link leading out.
    mkdirSync(join(root, 'outside'));
    writeFileSync(join(root, 'outside', 'secret.png'), SECRET);
    writeFileSync(join(root, 'secret.png'), SECRET);
    const plank = readFileSync(join(sampleCatalogueDir(), 'exercises.jsonl'), 'utf8')
      .split('\n')
      .find((l) => l.includes('"id":"Plank"'));
    mkdirSync(join(dir, 'images', 'Plank', 'premium'), { recursive: true });
    writeFileSync(join(dir, 'exercises.jsonl'), `${plank}\n`);
    copyFileSync(IMAGE, join(dir, 'images', 'Plank', 'premium', 'start.png'));
    writeFileSync(join(dir, 'images', 'secret.png'), SECRET);
    writeFileSync(join(dir, 'exercises.png'), SECRET);
    symlinkSync(join(root, 'outside', 'secret.png'), join(dir, 'images', 'Plank', 'premium', 'link.png'));
    symlinkSync(join(root, 'outside'), join(dir, 'images', 'Plank', 'premium', 'linkdir'));
    escapes = await startServer({ dir });
  });
  afterAll(async () => {
    await escapes.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('serves the legitimate file', async () => {
    expect((await get(escapes, '/images/Plank/premium/start.png')).status).toBe(200);
  });

  it.each([
    '/images/Plank/premium/../../../secret.png',
    '/images/Plank/premium/%2e%2e/%2e%2e/%2e%2e/secret.png',
    '/images/Plank/premium/%2E%2E%2F%2E%2E%2F%2E%2E%2F..%2Fsecret.png',
    '/images/Plank/premium/..%2F..%2F..%2F..%2Foutside%2Fsecret.png',
    '/images/Plank/premium/..%5C..%5C..%5Csecret.png',
    '/images/..%2F..%2F..%2Foutside/premium/secret.png',
    '/images/%2e%2e/premium/secret.png',
    '/images/Plank/%2e%2e/..%2F..%2Fsecret.png',
    '/images/Plank/premium/%2Fetc%2Fpasswd.png',
    `/images/Plank/premium/${encodeURIComponent(join(root, 'outside', 'secret'))}.png`,
    '/images/Plank/premium/start%00.png',
    '/images/Plank/premium/%00..%2F..%2F..%2Fsecret.png',
    '/images/Plank/premium/link.png',
    '/images/Plank/premium/linkdir%2Fsecret.png',
    '/images/Plank/premium/..png',
    '/images/Plank%00/premium/start.png',
  ])('never serves a file from elsewhere: %s', async (path) => {
    const res = await get(escapes, path);
    expect([400, 404]).toContain(res.status);
    expect(res.text).not.toContain(SECRET);
  });

  it('answers a raw NUL byte or a non-origin target without serving anything', async () => {
    for (const target of ['/images/Plank/premium/start\u0000.png', '*', 'http://127.0.0.1/images/Plank/premium/start.png', '../secret.png']) {
      const reply = await rawExchange(escapes, `GET ${target} HTTP/1.1\r\nHost: x\r\nX-API-Key: sandbox-premium\r\nConnection: close\r\n\r\n`);
      expect(reply, target).toMatch(/^HTTP\/1\.1 (400|404) /);
      expect(reply).not.toContain(SECRET);
    }
    expect((await get(escapes, '/images/Plank/premium/start.png')).status).toBe(200);
  });
});
