/** The catalogue server's JSON answers carry an ETag and honour If-None-Match with a 304; errors stay no-store. */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CatalogueServer, PREMIUM_KEY, startServer } from '../helpers/server.js';

let server: CatalogueServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

function get(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}${path}`, { headers: { 'x-api-key': PREMIUM_KEY, ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('ETag and 304 on JSON answers', () => {
  it('tags records and pages, answers a matching If-None-Match with an empty 304, and a changed answer with 200', async () => {
    for (const path of ['/exercise/Push_Up', '/exercise/exerciseIds?limit=3', '/exercise/query?primaryMuscle=CHEST']) {
      const first = await get(path);
      expect(first.status).toBe(200);
      const etag = first.headers.etag as string;
      expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
      expect(first.headers['cache-control']).toBeUndefined();
      const again = await get(path, { 'if-none-match': etag });
      expect(again.status).toBe(304);
      expect(again.body).toBe('');
      expect(again.headers.etag).toBe(etag);
      expect((await get(path, { 'if-none-match': `W/${etag}, "other"` })).status).toBe(304);
      expect((await get(path, { 'if-none-match': '"other"' })).status).toBe(200);
    }
    // Another language is another answer, with another tag.
    const de = await get('/exercise/Push_Up?lang=de-DE');
    expect(de.headers.etag).not.toBe((await get('/exercise/Push_Up')).headers.etag);
  });

  it('keeps errors no-store and untagged', async () => {
    const missing = await get('/exercise/No_Such_Thing');
    expect(missing.status).toBe(404);
    expect(missing.headers['cache-control']).toBe('no-store');
    expect(missing.headers.etag).toBeUndefined();
  });
});
