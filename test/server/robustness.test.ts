import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogueError } from '../../src/catalogue/load.js';
import { sampleCatalogueDir } from '../../src/server/sandbox.js';
import { FREE_KEY, startServer, type CatalogueServer } from '../helpers/server.js';
import { errorOf, get, getJson, rawExchange } from './support.js';
import { tempDir } from '../helpers/temp.js';

const lines: string[] = [];
let server: CatalogueServer;
beforeAll(async () => {
  server = await startServer({ log: (line) => lines.push(line) });
});
afterAll(() => server.close());

describe('methods and malformed requests', () => {
  it.each(['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'])('answers %s with 405 and Allow', async (method) => {
    const res = await get(server, '/exercise/Plank', { method });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
    expect(errorOf(res).code).toBe('method_not_allowed');
  });

  it('answers bad percent-encoding with 400', async () => {
    for (const path of ['/exercise/%zz', '/exercise/%E0%A4%A', '/images/%/premium/start.png']) {
      const res = await get(server, path);
      expect(res.status, path).toBe(400);
      expect(errorOf(res).code).toBe('bad_request');
    }
    // In the query string a stray % is just a character: an unknown cursor, still a clean 400.
    expect((await get(server, '/exercise/query?after=%zz')).status).toBe(400);
  });

  it('answers a long URL with 414 and a huge one without crashing', async () => {
    expect((await get(server, `/exercise/query?name=${'a'.repeat(9000)}`)).status).toBe(414);
    const huge = await rawExchange(server, `GET /exercise/${'a'.repeat(70_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(huge).toMatch(/^HTTP\/1\.1 (431|414|400) /);
  });

  it('survives garbage, half requests and dropped connections', async () => {
    expect(await rawExchange(server, 'NOT HTTP AT ALL\r\n\r\n')).toMatch(/^HTTP\/1\.1 400 /);
    expect(await rawExchange(server, Buffer.from([0, 1, 2, 3, 255, 254, 13, 10, 13, 10]))).toMatch(/^HTTP\/1\.1 400 /);
    expect(await rawExchange(server, 'GET /exercise/Plank HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n')).toMatch(/^HTTP\/1\.1 400 /);
    // A client that asks for a video and hangs up at once.
    await rawExchange(server, 'GET /videos/Plank/premium/demo.mp4 HTTP/1.1\r\nHost: x\r\nX-API-Key: sandbox-premium\r\n\r\n').catch(() => '');
    expect((await getJson(server, '/exercise/Plank')).id).toBe('Plank');
  });

  it('turns an exception while answering into a 500 JSON error and keeps serving', async () => {
    // A catalogue broken under the running server: read again for the request, and found broken.
    const dir = tempDir('exercises-changed-');
    const file = join(dir, 'exercises.jsonl');
    const good = `${JSON.stringify({ id: 'A', name: 'A' })}\n`;
    writeFileSync(file, good);
    const failing = await startServer({ dir });
    try {
      writeFileSync(file, `${good}{ not json\n`);
      const res = await get(failing, '/exercise/exerciseIds');
      expect(res.status).toBe(500);
      expect(errorOf(res).code).toBe('internal_error');
      expect(res.text).not.toContain(dir);
      writeFileSync(file, good);
      expect((await get(failing, '/exercise/A')).status).toBe(200);
    } finally {
      await failing.close();
    }
  });

  it('follows a catalogue replaced under it (as mirror replaces it): the next answers come from the new file', async () => {
    const dir = tempDir('exercises-replaced-');
    const lines = (ids: string[]) => `${ids.map((id) => JSON.stringify({ id, name: `Exercise ${id}`, instructions: [`Step of ${id}`] })).join('\n')}\n`;
    writeFileSync(join(dir, 'exercises.jsonl'), lines(['A', 'B']));
    const server = await startServer({ dir });
    try {
      expect((await getJson(server, '/exercise/B')).instructions).toEqual(['Step of B']);
      writeFileSync(join(dir, 'next.jsonl'), lines(['Aa', 'B', 'C']));
      renameSync(join(dir, 'next.jsonl'), join(dir, 'exercises.jsonl'));
      expect((await getJson(server, '/exercise/exerciseIds')).pagination.total).toBe(3);
      expect((await getJson(server, '/exercise/B')).instructions).toEqual(['Step of B']);
      expect((await getJson(server, '/exercise/C')).name).toBe('Exercise C');
    } finally {
      await server.close();
    }
  });
});

describe('intercept and the request record', () => {
  it('lets a test answer first, and records intercepted requests too', async () => {
    const faulty = await startServer({
      intercept: (req, res) => {
        if (!req.url?.startsWith('/exercise/exerciseIds')) return false;
        res.writeHead(503, { 'Retry-After': '1' });
        res.end('busy');
        return true;
      },
    });
    try {
      expect((await get(faulty, '/exercise/exerciseIds?limit=2', { headers: { Range: 'bytes=0-1' } })).status).toBe(503);
      expect((await get(faulty, '/exercise/Plank')).status).toBe(200);
      expect(faulty.requests).toEqual([
        { method: 'GET', path: '/exercise/exerciseIds', query: 'limit=2', status: 503, range: 'bytes=0-1', hadKey: true },
        { method: 'GET', path: '/exercise/Plank', query: '', status: 200, hadKey: true },
      ]);
    } finally {
      await faulty.close();
    }
  });
});

describe('the request log', () => {
  it('logs method, path, status and milliseconds, never the key', async () => {
    lines.length = 0;
    await get(server, '/exercise/query?name=plank');
    await get(server, '/exercise/Plank', { key: FREE_KEY });
    await get(server, '/exercise/Plank', { key: 'wrong-secret-key' });
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^GET \/exercise\/query\?name=plank 200 \d+(\.\d+)?ms$/);
    expect(lines[2]).toMatch(/^GET \/exercise\/Plank 401 \d+(\.\d+)?ms$/);
    const all = lines.join('\n');
    for (const key of ['sandbox-premium', FREE_KEY, 'wrong-secret-key']) expect(all).not.toContain(key);
  });

  it('escapes control characters so a request cannot forge log lines', async () => {
    lines.length = 0;
    await rawExchange(server, 'GET /exercise/a\u001b[31mb HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(lines.join('')).not.toContain('\u001b');
  });
});

describe('concurrency', () => {
  it('answers 100 concurrent clients correctly', async () => {
    const all = readFileSync(join(sampleCatalogueDir(), 'exercises.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    const video = readFileSync(join(sampleCatalogueDir(), 'videos', 'Plank', 'premium', 'demo.mp4'));
    const tasks = Array.from({ length: 100 }, async (_, i) => {
      const entry = all[i % all.length];
      switch (i % 4) {
        case 0: {
          const record = await getJson(server, `/exercise/${entry.id}`);
          expect(record.name).toBe(entry.name);
          break;
        }
        case 1: {
          const page = await getJson(server, `/exercise/query?limit=1&name=${encodeURIComponent(entry.name)}`);
          expect(page.exercises.map((e: any) => e.id)).toContain(entry.id);
          break;
        }
        case 2: {
          const res = await get(server, '/videos/Plank/premium/demo.mp4', { headers: { Range: `bytes=${i}-${i + 99}` } });
          expect(res.status).toBe(206);
          expect(res.body.equals(video.subarray(i, i + 100))).toBe(true);
          break;
        }
        default: {
          const page = await getJson(server, `/exercise/exerciseIds?limit=25&before=${entry.id}`);
          expect(page.pagination.total).toBe(all.length);
        }
      }
    });
    await Promise.all(tasks);
  });
});

describe('loading a catalogue', () => {
  let dir: string;
  beforeAll(() => {
    dir = tempDir('exercises-bad-');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const good = JSON.stringify({ id: 'A', name: 'A' });
  it.each([
    ['a line that is not JSON', [good, '', '{"id":"B", "name":'], 3, /not valid JSON/],
    ['a record without a name', [good, JSON.stringify({ id: 'B' })], 2, /name is required/],
    ['an unknown enum value', [good, good.replace('"A"}', '"B","category":"YOGA"}').replace('"id":"A"', '"id":"B"')], 2, /category/],
    ['a record without an id', [JSON.stringify({ name: 'C' })], 1, /id is required/],
    ['a duplicate id', [good, good], 2, /already used on line 1/],
    ['bad translations', [JSON.stringify({ id: 'A', name: 'A', translations: { 'de-DE': { aliases: 'x' } } })], 1, /translations\.de-DE\.aliases/],
  ])('fails start-up on %s, naming the file and line', async (_what, content, line, reason) => {
    const file = join(dir, 'exercises.jsonl');
    writeFileSync(file, `${content.join('\n')}\n`);
    const err = await startServer({ dir }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CatalogueError);
    expect((err as Error).message).toContain(`${file}:${line}:`);
    expect((err as Error).message).toMatch(reason);
  });

  it('fails start-up on a directory without exercises.jsonl', async () => {
    const err = await startServer({ dir: join(dir, 'missing') }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CatalogueError);
    expect((err as Error).message).toMatch(/exercises\.jsonl/);
  });

  it('skips blank lines and a byte-order mark, and keeps unknown fields', async () => {
    writeFileSync(
      join(dir, 'exercises.jsonl'),
      `\uFEFF${JSON.stringify({ id: 'A', name: 'A', extra: { x: 1 } })}\r\n\r\n${JSON.stringify({ id: 'B', name: 'b' })}\r\n`,
    );
    const small = await startServer({ dir });
    try {
      expect((await getJson(small, '/exercise/exerciseIds')).pagination.total).toBe(2);
      expect((await getJson(small, '/exercise/A')).extra).toEqual({ x: 1 });
    } finally {
      await small.close();
    }
  });
});
