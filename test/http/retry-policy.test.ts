/**
 * The one retry policy (src/http/retry-policy.ts): its decisions alone, then the same rules
 * seen through JSON requests and media downloads against local servers.
 */

import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS_PER_ITEM, RETRY_AFTER_CAP_MS, decideRetry } from '../../src/http/retry-policy.js';
import { NetworkError, RateLimitError } from '../../src/errors.js';
import { downloadFile } from '../../src/media/download-file.js';
import { PNG_SIGNATURE } from '../../src/media/verify.js';
import { closeAll, json, serve, transport } from './local-server.js';
import { tempDir } from '../helpers/temp.js';

afterEach(closeAll);

const rateLimited = (): RateLimitError => new RateLimitError('The service is rate limiting requests (429) for GET /x.');
const unavailable = (): NetworkError => new NetworkError('The service failed (503) on GET /x.', { kind: 'server_error' });

describe('decideRetry', () => {
  it('gives up at once on a Retry-After over the cap, saying how long the service asks to wait', () => {
    const decision = decideRetry({ attempts: 1 }, 5, rateLimited(), '99999');
    expect(decision.retry).toBe(false);
    if (decision.retry) return;
    expect(decision.error).toBeInstanceOf(RateLimitError);
    expect(decision.error.message).toContain('The service asks to wait 99999 s.');
    expect(decision.error.message).toContain('after 1 attempt');
    // Just at the cap it waits the Retry-After.
    expect(decideRetry({ attempts: 1 }, 5, rateLimited(), String(RETRY_AFTER_CAP_MS / 1000))).toEqual({ retry: true, delayMs: RETRY_AFTER_CAP_MS });
  });

  it('says the wait on a 503 too, keeping the server error', () => {
    const decision = decideRetry({ attempts: 1 }, 3, unavailable(), '7200');
    expect(decision.retry).toBe(false);
    if (decision.retry) return;
    expect(decision.error).toBeInstanceOf(NetworkError);
    expect(decision.error.message).toContain('asks to wait 7200 s');
  });

  it('allows `retries` failures in a row that brought nothing, with backoff, then stops', () => {
    for (let attempts = 1; attempts <= 2; attempts++) {
      const d = decideRetry({ attempts }, 2, unavailable());
      expect(d.retry).toBe(true);
      if (d.retry) {
        const step = 250 * 2 ** (attempts - 1);
        expect(d.delayMs).toBeGreaterThanOrEqual(step / 2);
        expect(d.delayMs).toBeLessThanOrEqual(step);
      }
    }
    expect(decideRetry({ attempts: 3 }, 2, unavailable()).retry).toBe(false);
  });

  it('caps the attempts per item even when each failure brought bytes', () => {
    expect(decideRetry({ attempts: MAX_ATTEMPTS_PER_ITEM - 1, fruitless: 1 }, 1, unavailable()).retry).toBe(true);
    expect(decideRetry({ attempts: MAX_ATTEMPTS_PER_ITEM, fruitless: 1 }, 1, unavailable()).retry).toBe(false);
  });
});

describe('the policy on JSON requests', () => {
  it('a 429 with Retry-After over the cap ends at once with exit 5 and the wait', async () => {
    const { url, seen } = await serve((_req, res) => json(res, 429, { error: { code: 'rate_limited', message: 'slow down' } }, { 'retry-after': '99999' }));
    const started = Date.now();
    const err = await transport({ baseUrl: url, settings: { retries: 3 } })
      .getJson('/x')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    expect((err as RateLimitError).exitCode).toBe(5);
    expect((err as Error).message).toContain('99999 s');
    expect((err as Error).message).toContain('slow down');
    expect(seen).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('the policy on media downloads', () => {
  const png = Buffer.concat([PNG_SIGNATURE, Buffer.alloc(64 * 1024, 7)]);
  const dir = (): string => tempDir('retry-policy-');

  it('a 429 with Retry-After over the cap ends at once (no 30 s waits), as for JSON', async () => {
    const { url, seen } = await serve((_req, res) => json(res, 429, { error: { code: 'rate_limited', message: 'slow down' } }, { 'retry-after': '99999' }));
    const t = transport({ baseUrl: url, settings: { retries: 3 } });
    const started = Date.now();
    const err = await downloadFile({ kind: 'image', url: new URL('/images/a/premium/b.png', url), what: 'image "b"' }, join(dir(), 'b.png'), {
      transport: t,
      settings: { retries: 3 },
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    expect((err as Error).message).toContain('The service asks to wait 99999 s.');
    expect(seen).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('stops after MAX_ATTEMPTS_PER_ITEM attempts when every attempt brings a little and drops', async () => {
    // 1 KiB per connection, then the connection drops: each attempt makes progress, so --retries
    // alone would never end it before the whole 64 KiB (65 attempts).
    const { url, seen } = await serve((req, res) => {
      const from = Number(/^bytes=(\d+)-$/.exec(req.headers.range ?? '')?.[1] ?? 0);
      const headers = { 'content-type': 'image/png', 'accept-ranges': 'bytes', etag: '"v1"', 'content-length': String(png.length - from) };
      if (from > 0) res.writeHead(206, { ...headers, 'content-range': `bytes ${from}-${png.length - 1}/${png.length}` });
      else res.writeHead(200, headers);
      // The drop comes a moment after the bytes, once the downloader is reading them (bytes still
      // buffered in a body that fails are lost with it, and that attempt would bring nothing).
      res.write(png.subarray(from, from + 1024), () => setTimeout(() => res.socket?.destroy(), 100));
    });
    const t = transport({ baseUrl: url, settings: { retries: 1 } });
    const err = await downloadFile({ kind: 'image', url: new URL('/images/a/premium/b.png', url), what: 'image "b"' }, join(dir(), 'b.png'), {
      transport: t,
      settings: { retries: 1 },
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect(seen).toHaveLength(MAX_ATTEMPTS_PER_ITEM);
    // It did resume each time: every request after the first asked for the next range.
    expect(seen[1]?.headers.range).toBe('bytes=1024-');
  }, 30_000);
});
