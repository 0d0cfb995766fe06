/**
 * Each fault helper of test/helpers/faults.ts produces its fault, seen by a plain node:http
 * client over loopback: the bytes that arrive, how the body ends, and how fast (a fault that
 * only shows after the client's idle timeout proves nothing about the code under test).
 * test/helpers/fixtures.ts and test/server/support.ts hold no fault helpers (parsers, env and
 * raw request helpers only), so these are all of them.
 */
import { Agent, request } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type CatalogueServer, PREMIUM_KEY, startServer } from './server.js';
import { makeMediaCatalogue, mp4Bytes, pngBytes } from '../media/media-catalogue.js';
import { closeDelimitedResponse, cutResponseAfter, dripResponse, endlessResponse } from './faults.js';

type Intercept = (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;
let intercept: Intercept | undefined;
let server: CatalogueServer;
/** Keep-alive, as the CLI's own transport: a fault must show on a connection kept open too. */
const agent = new Agent({ keepAlive: true });
// demo: several of the server's 1 MiB read chunks; short: one chunk, so the server ends the
// response right after the cut write (the case where a cut made after the end cut nothing).
const catalogue = makeMediaCatalogue([{ id: 'Plank', name: 'Plank', videos: { demo: 3_000_000, short: 700_000 } }]);
const VIDEO = '/videos/Plank/premium/demo.mp4';
const SHORT = '/videos/Plank/premium/short.mp4';

beforeAll(async () => {
  server = await startServer({ dir: catalogue.dir, intercept: (req, res) => (intercept ? intercept(req, res) : false) });
});
afterAll(async () => {
  agent.destroy();
  await server.close();
});
afterEach(() => {
  intercept = undefined;
});

interface Seen {
  status: number;
  headers: IncomingMessage['headers'];
  bytes: number;
  body: Buffer;
  /** How the body ended: 'end' (the client took it as complete), 'error' (it saw the fault) or 'stalled' (nothing for 3 s). */
  ending: 'end' | 'error' | 'stalled';
  /** The client's own verdict: the message was complete per its framing. */
  complete: boolean;
  ms: number;
}

/** GET `path`; `stopAfter` bytes make the client hang up itself; 3 s without an end is a stall. */
function fetchRaw(path: string, options: { stopAfter?: number } = {}): Promise<Seen> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request({ host: '127.0.0.1', port: server.port, path, headers: { 'x-api-key': PREMIUM_KEY }, agent }, (res) => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      let settled = false;
      const stall = setTimeout(() => {
        done('stalled');
        res.destroy();
      }, 3_000);
      const done = (ending: Seen['ending']): void => {
        if (settled) return;
        settled = true;
        clearTimeout(stall);
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          bytes,
          body: Buffer.concat(chunks),
          ending,
          complete: res.complete,
          ms: performance.now() - started,
        });
      };
      res.on('data', (c: Buffer) => {
        bytes += c.length;
        if (chunks.length < 64) chunks.push(c);
        if (options.stopAfter !== undefined && bytes >= options.stopAfter) {
          done('end');
          res.destroy();
        }
      });
      res.on('end', () => done('end'));
      res.on('error', () => done('error'));
      res.on('aborted', () => done('error'));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('fault helpers produce their faults', () => {
  it('cutResponseAfter drops the connection mid-body: fewer bytes than Content-Length, an error, at once', async () => {
    intercept = (_req, res) => {
      cutResponseAfter(res, 100_000);
      return false; // the real server answers, through the cut
    };
    const seen = await fetchRaw(VIDEO);
    expect(seen.status).toBe(200);
    expect(Number(seen.headers['content-length'])).toBe(3_000_000);
    expect(seen.bytes).toBe(100_000);
    expect(seen.ending).toBe('error');
    expect(seen.complete).toBe(false);
    expect(seen.ms).toBeLessThan(1_000); // well under any idle timeout
  });

  it('cutResponseAfter cuts a body sent in one write, at a chunk boundary and at its first byte alike', async () => {
    for (const [path, limit] of [
      [SHORT, 350_000],
      [VIDEO, 1024 * 1024],
      [VIDEO, 1],
    ] as const) {
      intercept = (_req, res) => {
        cutResponseAfter(res, limit);
        return false;
      };
      const seen = await fetchRaw(path);
      expect(seen.bytes).toBe(limit);
      expect(seen.ending).toBe('error');
      expect(seen.ms).toBeLessThan(1_000);
    }
  });

  it('dripResponse sends the whole body slowly, chunked, without Content-Length', async () => {
    const body = mp4Bytes(40_000);
    intercept = (_req, res) => {
      dripResponse(res, body, { contentType: 'video/mp4', chunkBytes: 10_000, intervalMs: 50 });
      return true;
    };
    const seen = await fetchRaw(VIDEO);
    expect(seen.headers['content-length']).toBeUndefined();
    expect(seen.headers['transfer-encoding']).toBe('chunked');
    expect(seen.body.equals(body)).toBe(true);
    expect(seen.ending).toBe('end');
    expect(seen.complete).toBe(true);
    expect(seen.ms).toBeGreaterThanOrEqual(150); // four chunks, 50 ms apart
  });

  it('closeDelimitedResponse ends the body by closing: a cut body looks complete to the client', async () => {
    const body = pngBytes(50_000);
    intercept = (_req, res) => {
      closeDelimitedResponse(res, body, { contentType: 'image/png', cutAfter: 20_000 });
      return true;
    };
    const seen = await fetchRaw(VIDEO);
    expect(seen.headers['content-length']).toBeUndefined();
    expect(seen.headers['transfer-encoding']).toBeUndefined();
    expect(seen.bytes).toBe(20_000);
    // The fault: nothing in the exchange says 30,000 bytes are missing.
    expect(seen.ending).toBe('end');
    expect(seen.complete).toBe(true);
    expect(seen.ms).toBeLessThan(1_000);
  });

  it('endlessResponse never ends: the client stops it, far past any real image', async () => {
    let closedAt = 0;
    intercept = (_req, res) => {
      endlessResponse(res, pngBytes(64), { contentType: 'image/png' });
      res.on('close', () => (closedAt = performance.now()));
      return true;
    };
    const seen = await fetchRaw(VIDEO, { stopAfter: 20 * 1024 * 1024 });
    expect(seen.bytes).toBeGreaterThanOrEqual(20 * 1024 * 1024);
    expect(seen.body.subarray(0, 8).equals(pngBytes(8))).toBe(true);
    expect(seen.headers['content-length']).toBeUndefined();
    // The server side lets go once the client has.
    for (let i = 0; i < 50 && closedAt === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(closedAt).toBeGreaterThan(0);
  });

  it('endlessResponse with an announced length sends that Content-Length', async () => {
    intercept = (_req, res) => {
      endlessResponse(res, pngBytes(64), { contentType: 'image/png', announce: 300_000_000 });
      return true;
    };
    const seen = await fetchRaw(VIDEO, { stopAfter: 1 });
    expect(seen.headers['content-length']).toBe('300000000');
  });
});
