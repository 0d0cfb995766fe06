/**
 * Media bodies through undici's dispatch (src/http/body.ts, Transport.dispatchStream):
 * the rules every request follows still hold on this path — a dropped connection resumes, an
 * abort stops at once and keeps the `.part`, the key stays with its origin, the whole-life
 * deadline cuts a trickle — and the body source hands over every byte, with back-pressure.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { InterruptedError, NetworkError } from '../../src/errors.js';
import { downloadFile, type MediaTarget } from '../../src/media/download-file.js';
import { readSmall } from '../../src/media/download/body-pump.js';
import { PNG_SIGNATURE } from '../../src/media/verify.js';
import { cutResponseAfter } from '../helpers/faults.js';
import { closeAll, serve, transport } from '../http/local-server.js';
import { tempDir } from '../helpers/temp.js';

afterEach(closeAll);

const KEY = 'sandbox-premium';
/** A PNG-looking body of `size` bytes, distinct at every offset (so a misplaced resume shows). */
function pngBody(size: number): Buffer {
  const body = Buffer.alloc(size);
  for (let i = 0; i < size; i++) body[i] = (i * 7 + (i >> 8)) & 0xff;
  PNG_SIGNATURE.copy(body, 0);
  return body;
}

/** Serves `body` with a strong ETag and Range support, as the catalogue server does. */
function rangeServer(body: Buffer, res: ServerResponse, range: string | undefined): void {
  const common = { 'content-type': 'image/png', 'accept-ranges': 'bytes', etag: '"v1"' };
  const m = /^bytes=(\d+)-$/.exec(range ?? '');
  if (m) {
    const start = Number(m[1]);
    res.writeHead(206, { ...common, 'content-length': String(body.length - start), 'content-range': `bytes ${start}-${body.length - 1}/${body.length}` });
    res.end(body.subarray(start));
  } else {
    res.writeHead(200, { ...common, 'content-length': String(body.length) });
    res.end(body);
  }
}

function image(url: string, path = '/images/a/premium/b.png'): MediaTarget {
  return { kind: 'image', url: new URL(path, url), what: 'image "b" of exercise a' };
}

function outFile(): string {
  return join(tempDir('dispatch-body-'), 'b.png');
}

describe('Transport.dispatchStream', () => {
  it('hands over every byte through the BodySource, pausing the socket while the consumer asks to', async () => {
    const body = pngBody(3 * 1024 * 1024);
    const { url } = await serve((req, res) => rangeServer(body, res, req.headers.range));
    const res = await transport({ baseUrl: url }).dispatchStream('/images/a/premium/b.png');
    expect(res.status).toBe(200);
    expect(res.headers['content-length']).toBe(String(body.length));
    const chunks: Buffer[] = [];
    let pauses = 0;
    await new Promise<void>((resolve, reject) => {
      const control = res.body.start({
        onData(chunk) {
          chunks.push(chunk);
          // Pause after every chunk and resume a little later: every byte must still come, in order.
          pauses += 1;
          setTimeout(() => control.resume(), 1);
          return false;
        },
        onEnd: resolve,
        onError: reject,
      });
    });
    expect(pauses).toBeGreaterThan(1);
    expect(Buffer.concat(chunks).equals(body)).toBe(true);
  });

  it('reads a small error body and lets go of the rest', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`broken ${'x'.repeat(200_000)}`);
    });
    const res = await transport({ baseUrl: url, settings: { retries: 0 } }).dispatchStream('/images/a/premium/b.png');
    expect(res.status).toBe(500);
    const text = await readSmall(res.body, 1024);
    expect(text.length).toBe(1024);
    expect(text.toString().startsWith('broken x')).toBe(true);
  });

  it('sends the key to the base origin only', async () => {
    const body = pngBody(10_000);
    const own = await serve((req, res) => rangeServer(body, res, req.headers.range));
    const other = await serve((req, res) => rangeServer(body, res, req.headers.range));
    const t = transport({ baseUrl: own.url, apiKey: KEY, settings: { retries: 0 } });
    await downloadFile(image(own.url), outFile(), { transport: t, settings: { retries: 0 } });
    await downloadFile(image(other.url), outFile(), { transport: t, settings: { retries: 0 } });
    expect(own.seen[0]?.headers['x-api-key']).toBe(KEY);
    expect(other.seen).toHaveLength(1);
    expect(other.seen[0]?.headers['x-api-key']).toBeUndefined();
  });
});

describe('downloadFile over dispatch', () => {
  it('resumes a connection dropped mid-body with Range and If-Range, and the file is whole', async () => {
    const body = pngBody(2 * 1024 * 1024);
    const CUT = 700_000;
    // The drop is set off by the client having counted every byte before the cut, not by a timer:
    // it then resumes from exactly there, however slowly it was scheduled.
    let cutReached!: () => void;
    const cutCounted = new Promise<void>((resolve) => (cutReached = resolve));
    const path = '/images/a/premium/b.png';
    const { url, seen } = await serve((req, res, n) => {
      if (n === 1) cutResponseAfter(res, CUT, { dropWhen: cutCounted });
      rangeServer(body, res, req.headers.range);
    });
    const file = outFile();
    const log: string[] = [];
    let counted = 0;
    const result = await downloadFile(image(url, path), file, {
      // Timeouts this test does not test are far away: only the drop may fail an attempt.
      transport: transport({ baseUrl: url, settings: { timeout: 60_000, retries: 0 } }),
      settings: { retries: 2 },
      log: (line) => log.push(line),
      onBytes: (n) => {
        counted += n;
        if (counted >= CUT) cutReached();
      },
    });
    expect(readFileSync(file).equals(body)).toBe(true);
    expect(result.resumed).toBe(true);
    // Every request named, so an extra one says where it came from (a retry in the log, or another client).
    expect(
      seen.map((req) => `${req.method} ${req.url} ${req.headers.range ?? '-'} ${String(req.headers['if-range'] ?? '-')}`),
      log.join('\n'),
    ).toEqual([`GET ${path} - -`, `GET ${path} bytes=${CUT}- "v1"`]);
    // Every byte crossed the network once: the first attempt's were kept, not fetched again.
    expect(result.received).toBe(body.length);
  });

  it('stops promptly on abort mid-body and keeps the .part for the next run', async () => {
    const body = pngBody(4 * 1024 * 1024);
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(body.length), 'accept-ranges': 'bytes', etag: '"v1"' });
      // 64 KiB every 20 ms: about 20 s for the whole body, so only an abort ends it early.
      let at = 0;
      const timer = setInterval(() => {
        if (res.destroyed) return clearInterval(timer);
        res.write(body.subarray(at, at + 64 * 1024));
        at += 64 * 1024;
      }, 20);
      res.on('close', () => clearInterval(timer));
    });
    const ctrl = new AbortController();
    let received = 0;
    let abortedAt = 0;
    const file = outFile();
    const done = downloadFile(image(url), file, {
      transport: transport({ baseUrl: url, settings: { retries: 0 } }),
      settings: { retries: 2 },
      signal: ctrl.signal,
      onBytes: (n) => {
        received += n;
        if (received >= 300_000 && !ctrl.signal.aborted) {
          abortedAt = Date.now();
          ctrl.abort();
        }
      },
    });
    const err = await done.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InterruptedError);
    expect(Date.now() - abortedAt).toBeLessThan(500);
    expect(existsSync(file)).toBe(false);
    expect(statSync(`${file}.part`).size).toBeGreaterThanOrEqual(300_000);
    expect(readFileSync(`${file}.part`).equals(body.subarray(0, statSync(`${file}.part`).size))).toBe(true);
    expect(existsSync(`${file}.part.json`)).toBe(true);
  });

  it("stops a request still waiting for its head on the transport's own signal (Ctrl-C)", async () => {
    const { url } = await serve(() => {
      /* never answers */
    });
    const ctrl = new AbortController();
    const t = transport({ baseUrl: url, settings: { timeout: 10_000, retries: 0 }, signal: ctrl.signal });
    setTimeout(() => ctrl.abort(), 100);
    const started = Date.now();
    const err = await downloadFile(image(url), outFile(), { transport: t, settings: { retries: 2 } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InterruptedError);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('cuts a body that trickles under the minimum rate once the grace has passed, as a timeout', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': '1000000' });
      res.write(PNG_SIGNATURE);
      // A byte every 300 ms: inside the 500 ms idle timeout, far under the minimum average rate.
      const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write('a')), 300);
      res.on('close', () => clearInterval(timer));
    });
    const started = Date.now();
    const err = await downloadFile(image(url), outFile(), {
      transport: transport({ baseUrl: url, settings: { timeout: 500, retries: 0 } }),
      settings: { retries: 0 },
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).code).toBe('timeout');
    // The grace is 3 × 500 ms; the check wakes at most a moment later.
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});
