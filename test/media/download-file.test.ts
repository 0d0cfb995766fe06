/**
 * The single-file downloader against the project's catalogue server over real HTTP,
 * with faults injected through `intercept`.
 */
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Transport } from '../../src/http/transport.js';
import { downloadFile, downloadToStream, type MediaTarget } from '../../src/media/download-file.js';
import { AuthError, InterruptedError, MalformedResponseError, NetworkError, NotFoundError, UsageError, WriteFailedError } from '../../src/errors.js';
import { pngBytes } from './media-catalogue.js';
import { cutResponseAfter } from '../helpers/faults.js';
import { tempDir } from '../helpers/temp.js';
import { type Intercept, useDownloadServer } from './download-setup.js';

const setup = useDownloadServer([{ id: 'Bench_Press', name: 'Bench Press', images: { start: 300_000, end: 5_000 }, videos: { loop: 700_000 } }], {
  timeoutMs: 5_000,
});
const catalogue = setup.catalogue;
const target = (kind: 'image' | 'video', name: string): MediaTarget => setup.target(kind, 'Bench_Press', name);

function outDir(): string {
  return tempDir('media-out-');
}

/** Lets the real server answer, but cuts the connection once `limit` body bytes have gone out. */
function cutAfter(limit: number, times = 1): Intercept {
  let left = times;
  return (_req, res) => {
    if (left <= 0) return false;
    left -= 1;
    cutResponseAfter(res, limit);
    return false;
  };
}

/** The server's current ETag for the loop video, learnt the way a first run would have. */
async function loopEtag(): Promise<string> {
  const before = setup.server.requests.length;
  const probe = await setup.transport.dispatchStream(target('video', 'loop').url);
  probe.body.discard();
  while (setup.server.requests.length === before) await new Promise((r) => setTimeout(r, 5));
  setup.server.requests.length = 0;
  return probe.headers.etag as string;
}

describe('downloadFile', () => {
  it('streams a file to its final name, byte-identical, leaving no .part or sidecar', async () => {
    const dir = outDir();
    const file = join(dir, 'start.png');
    const result = await downloadFile(target('image', 'start'), file, { transport: setup.transport, settings: { retries: 0 } });
    expect(readFileSync(file).equals(readFileSync(catalogue.file('image', 'Bench_Press', 'start')))).toBe(true);
    expect(result).toMatchObject({ size: 300_000, received: 300_000, resumed: false });
    expect(existsSync(`${file}.part`)).toBe(false);
    expect(existsSync(`${file}.part.json`)).toBe(false);
    expect(setup.mediaRequests()).toHaveLength(1);
    expect(setup.mediaRequests()[0]?.hadKey).toBe(true);
  });

  it('resumes a connection dropped mid-body in the same run with Range and If-Range', async () => {
    setup.intercept = cutAfter(350_000);
    const file = join(outDir(), 'loop.mp4');
    const result = await downloadFile(target('video', 'loop'), file, { transport: setup.transport, settings: { retries: 2 } });
    expect(readFileSync(file).equals(readFileSync(catalogue.file('video', 'Bench_Press', 'loop')))).toBe(true);
    const reqs = setup.mediaRequests();
    expect(reqs).toHaveLength(2);
    expect(reqs[0]?.range).toBeUndefined();
    expect(reqs[1]?.range).toMatch(/^bytes=\d+-$/);
    expect(Number(/=(\d+)-/.exec(reqs[1]!.range!)![1])).toBeGreaterThan(0);
    expect(reqs[1]?.ifRange).toMatch(/^"/);
    expect(reqs[1]?.status).toBe(206);
    expect(result.resumed).toBe(true);
    expect(result.received).toBeLessThan(700_000 + 350_000);
  });

  it('continues a leftover .part from an earlier run, and starts over when the ETag changed', async () => {
    const original = readFileSync(catalogue.file('video', 'Bench_Press', 'loop'));
    const etag = await loopEtag();

    const dir = outDir();
    const file = join(dir, 'loop.mp4');
    writeFileSync(`${file}.part`, original.subarray(0, 123_456));
    writeFileSync(`${file}.part.json`, JSON.stringify({ version: 1, url: target('video', 'loop').url.href, etag, total: original.length }));
    const resumed = await downloadFile(target('video', 'loop'), file, { transport: setup.transport, settings: { retries: 0 } });
    expect(readFileSync(file).equals(original)).toBe(true);
    expect(resumed).toMatchObject({ resumed: true, received: original.length - 123_456 });
    expect(setup.mediaRequests()[0]).toMatchObject({ range: 'bytes=123456-', ifRange: etag, status: 206 });

    setup.server.requests.length = 0;
    const file2 = join(dir, 'again.mp4');
    writeFileSync(`${file2}.part`, Buffer.alloc(50_000, 7)); // bytes of an older version
    writeFileSync(`${file2}.part.json`, JSON.stringify({ version: 1, url: target('video', 'loop').url.href, etag: '"stale"', total: original.length }));
    const restarted = await downloadFile(target('video', 'loop'), file2, { transport: setup.transport, settings: { retries: 0 } });
    expect(readFileSync(file2).equals(original)).toBe(true);
    expect(restarted.received).toBe(original.length);
    expect(setup.mediaRequests()).toHaveLength(1);
    expect(setup.mediaRequests()[0]).toMatchObject({ range: 'bytes=50000-', ifRange: '"stale"', status: 200 });
  });

  it('refuses a leftover .part that is a link to a file elsewhere, and leaves that file as it was', async () => {
    const original = readFileSync(catalogue.file('video', 'Bench_Press', 'loop'));
    const etag = await loopEtag();
    const url = target('video', 'loop').url.href;
    const dir = outDir();
    const elsewhere = outDir();

    // A hard link, resumable by its sidecar: appending to it would write the other file.
    const hard = join(elsewhere, 'hard.bin');
    writeFileSync(hard, original.subarray(0, 1000));
    const file = join(dir, 'loop.mp4');
    linkSync(hard, `${file}.part`);
    writeFileSync(`${file}.part.json`, JSON.stringify({ version: 1, url, etag, total: original.length }));
    await expect(downloadFile(target('video', 'loop'), file, { transport: setup.transport, settings: { retries: 0 } })).rejects.toThrow(UsageError);
    expect(readFileSync(hard).equals(original.subarray(0, 1000))).toBe(true);

    // A symbolic link to a file of the full size: it must not be renamed into place without a request.
    const soft = join(elsewhere, 'soft.mp4');
    writeFileSync(soft, original);
    const file2 = join(dir, 'again.mp4');
    symlinkSync(soft, `${file2}.part`);
    writeFileSync(`${file2}.part.json`, JSON.stringify({ version: 1, url, etag, total: original.length }));
    await expect(downloadFile(target('video', 'loop'), file2, { transport: setup.transport, settings: { retries: 0 } })).rejects.toThrow(
      /Refusing to write through .*again\.mp4\.part/,
    );
    expect(existsSync(file2)).toBe(false);
    expect(readFileSync(soft).equals(original)).toBe(true);
  });

  it('does not trust a leftover .part without a sidecar: it starts over', async () => {
    const file = join(outDir(), 'end.png');
    writeFileSync(`${file}.part`, Buffer.from('garbage from who knows where'));
    await downloadFile(target('image', 'end'), file, { transport: setup.transport, settings: { retries: 0 } });
    expect(readFileSync(file).equals(readFileSync(catalogue.file('image', 'Bench_Press', 'end')))).toBe(true);
    expect(setup.mediaRequests()[0]?.range).toBeUndefined();
  });

  it('starts over when a 206 does not match the range asked', async () => {
    let first = true;
    setup.intercept = (req, res) => {
      if (!req.headers.range || !first) return false;
      first = false;
      res.writeHead(206, { 'content-type': 'video/mp4', 'content-range': 'bytes 0-9/700000', 'content-length': '10' });
      res.end(Buffer.alloc(10));
      return true;
    };
    const original = readFileSync(catalogue.file('video', 'Bench_Press', 'loop'));
    const etag = await loopEtag();
    const file = join(outDir(), 'loop.mp4');
    writeFileSync(`${file}.part`, original.subarray(0, 1000));
    writeFileSync(`${file}.part.json`, JSON.stringify({ version: 1, url: target('video', 'loop').url.href, etag, total: original.length }));
    await downloadFile(target('video', 'loop'), file, { transport: setup.transport, settings: { retries: 1 } });
    expect(readFileSync(file).equals(original)).toBe(true);
    expect(setup.mediaRequests().map((r) => r.range)).toEqual(['bytes=1000-', undefined]);
  });

  describe('a server that lies leaves no final file', () => {
    const cases: Array<[string, Intercept, new (...args: never[]) => Error]> = [
      [
        'HTML with 200',
        (_req, res) => {
          res.writeHead(200, { 'content-type': 'text/html' });
          res.end('<!doctype html><p>Sign in</p>');
          return true;
        },
        MalformedResponseError,
      ],
      [
        'HTML with 200 and no content type',
        (_req, res) => {
          res.writeHead(200);
          res.end('<!doctype html><p>Sign in</p>');
          return true;
        },
        MalformedResponseError,
      ],
      [
        'wrong magic bytes under image/png',
        (_req, res) => {
          res.writeHead(200, { 'content-type': 'image/png', 'content-length': '4000' });
          res.end(Buffer.alloc(4000, 1));
          return true;
        },
        MalformedResponseError,
      ],
      [
        'a Content-Length longer than the body',
        (_req, res) => {
          const body = pngBytes(1000);
          res.writeHead(200, { 'content-type': 'image/png', 'content-length': '5000' });
          res.write(body);
          res.socket?.end();
          return true;
        },
        NetworkError,
      ],
      [
        'a truncated body (connection destroyed)',
        (_req, res) => {
          res.writeHead(200, { 'content-type': 'image/png', 'content-length': '5000' });
          res.write(pngBytes(2000));
          setTimeout(() => res.socket?.destroy(), 10);
          return true;
        },
        NetworkError,
      ],
    ];
    it.each(cases)('%s', async (_label, fault, errorClass) => {
      setup.intercept = fault;
      const file = join(outDir(), 'start.png');
      await expect(downloadFile(target('image', 'start'), file, { transport: setup.transport, settings: { retries: 1 } })).rejects.toBeInstanceOf(errorClass);
      expect(existsSync(file)).toBe(false);
    });
  });

  it('maps 403 to an AuthError about the plan and 404 to a NotFoundError naming the media', async () => {
    const free = new Transport({ baseUrl: setup.server.url, apiKey: 'sandbox-free', settings: { timeout: 5_000, retries: 0 } });
    const file = join(outDir(), 'start.png');
    const err = await downloadFile(target('image', 'start'), file, { transport: free, settings: { retries: 2 } }).catch((e: unknown) => e);
    await free.close();
    expect(err).toBeInstanceOf(AuthError);
    expect((err as Error).message).toMatch(/premium plan/);
    expect(setup.mediaRequests()).toHaveLength(1); // a 403 is not retried
    const missing = await downloadFile(target('image', 'nope'), file, { transport: setup.transport, settings: { retries: 2 } }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect((missing as Error).message).toContain('image "nope" of exercise Bench_Press');
    expect(existsSync(file)).toBe(false);
  });

  it('retries 503 per the shared policy, then succeeds', async () => {
    let fails = 1;
    setup.intercept = (_req, res) => {
      if (fails-- <= 0) return false;
      res.writeHead(503, { 'retry-after': '0' });
      res.end();
      return true;
    };
    const file = join(outDir(), 'end.png');
    await downloadFile(target('image', 'end'), file, { transport: setup.transport, settings: { retries: 2 } });
    expect(setup.mediaRequests().map((r) => r.status)).toEqual([503, 200]);
  });

  /**
   * Sends the first `bytes` of the loop video under `etag`, then stalls; polls (a loaded machine
   * may take a while) until `ready(file)`, then aborts as Ctrl-C does. Resolves with the file.
   */
  async function interruptLoop(bytes: number, etag: string, ready: (file: string) => boolean): Promise<string> {
    const controller = new AbortController();
    const file = join(outDir(), 'loop.mp4');
    setup.intercept = (_req, res) => {
      const body = readFileSync(catalogue.file('video', 'Bench_Press', 'loop'));
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(body.length), 'accept-ranges': 'bytes', etag });
      res.write(body.subarray(0, bytes));
      const poll = setInterval(() => {
        if (!ready(file)) return;
        clearInterval(poll);
        controller.abort(new InterruptedError());
      }, 10);
      return true;
    };
    await expect(
      downloadFile(target('video', 'loop'), file, { transport: setup.transport, settings: { retries: 2 }, signal: controller.signal }),
    ).rejects.toBeInstanceOf(InterruptedError);
    return file;
  }

  it('on interruption stops, keeps the .part and its sidecar for the rerun, and leaves no final file', async () => {
    // Ctrl-C once some of the bytes are on disk: a small .part gets its sidecar as the download ends.
    const file = await interruptLoop(200_000, '"v1"', (f) => (statSync(`${f}.part`, { throwIfNoEntry: false })?.size ?? 0) > 0);
    expect(existsSync(file)).toBe(false);
    expect(statSync(`${file}.part`).size).toBeGreaterThan(0);
    expect(JSON.parse(readFileSync(`${file}.part.json`, 'utf8'))).toMatchObject({ etag: '"v1"', total: 700_000 });
  });

  it('gives a .part past 256 KiB its sidecar while it still downloads, so a process killed outright leaves it resumable', async () => {
    let sidecarWhileFlowing: unknown;
    await interruptLoop(400_000, '"v2"', (f) => {
      if (!existsSync(`${f}.part.json`)) return false;
      sidecarWhileFlowing = JSON.parse(readFileSync(`${f}.part.json`, 'utf8'));
      return true;
    });
    expect(sidecarWhileFlowing).toMatchObject({ etag: '"v2"', total: 700_000 });
  });

  it('a fresh .part removes a sidecar left without one, and a failed download leaves the sidecar of its own answer', async () => {
    const file = join(outDir(), 'end.png');
    writeFileSync(`${file}.part.json`, JSON.stringify({ version: 1, url: target('image', 'end').url.href, etag: '"stale"', total: 5_000 }));
    setup.intercept = cutAfter(2_000);
    await expect(downloadFile(target('image', 'end'), file, { transport: setup.transport, settings: { retries: 0 } })).rejects.toBeInstanceOf(NetworkError);
    expect(existsSync(file)).toBe(false);
    expect(statSync(`${file}.part`).size).toBe(2_000);
    const sidecar = JSON.parse(readFileSync(`${file}.part.json`, 'utf8')) as { etag: string };
    expect(sidecar.etag).toMatch(/^"/);
    expect(sidecar.etag).not.toBe('"stale"');
    // The rerun continues those bytes with the server's own validator.
    setup.intercept = undefined;
    await downloadFile(target('image', 'end'), file, { transport: setup.transport, settings: { retries: 0 } });
    expect(readFileSync(file).equals(readFileSync(catalogue.file('image', 'Bench_Press', 'end')))).toBe(true);
    expect(setup.mediaRequests().at(-1)).toMatchObject({ status: 206 });
    expect(existsSync(`${file}.part.json`)).toBe(false);
  });

  it('a fresh .part whose old one cannot be removed saves no sidecar beside the old bytes', async () => {
    const file = join(outDir(), 'end.png');
    let request = 0;
    setup.intercept = (_req, res) => {
      request += 1;
      if (request === 1) {
        // 2,000 bytes without a validator: the retry asks for the whole file again.
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': '5000' });
        res.write(readFileSync(catalogue.file('image', 'Bench_Press', 'end')).subarray(0, 2_000));
        setTimeout(() => res.socket?.destroy(), 10);
        return true;
      }
      // Before the fresh answer (with the server's ETag) arrives, the old .part becomes something unlink refuses.
      rmSync(`${file}.part`);
      mkdirSync(`${file}.part`);
      writeFileSync(join(`${file}.part`, 'inside'), '');
      return false;
    };
    await expect(downloadFile(target('image', 'end'), file, { transport: setup.transport, settings: { retries: 1 } })).rejects.toBeInstanceOf(WriteFailedError);
    expect(request).toBe(2);
    // The fresh answer's validator describes none of the bytes left at the .part's name: it is not kept.
    expect(existsSync(`${file}.part.json`)).toBe(false);
    expect(existsSync(file)).toBe(false);
  });

  it('turns a local write failure into a plain error, not a retry', async () => {
    const dir = outDir();
    writeFileSync(join(dir, 'blocker'), 'a file where a directory should be');
    const err = await downloadFile(target('image', 'end'), join(dir, 'blocker', 'end.png'), { transport: setup.transport, settings: { retries: 2 } }).catch(
      (e: unknown) => e,
    );
    // The disk's failure, not the user's: exit 6, naming the path and the reason.
    expect(err).toBeInstanceOf(WriteFailedError);
    expect((err as WriteFailedError).exitCode).toBe(6);
    expect((err as Error).message).toMatch(/Cannot write .*blocker.*\((ENOTDIR|EEXIST)\)/);
    // The file is claimed (its lock taken) before any request: one that cannot be claimed costs none.
    expect(setup.mediaRequests().filter((r) => r.path.endsWith('/end.png'))).toHaveLength(0);
  });

  it('streams to a writable (stdout) with the same checks', async () => {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    await downloadToStream(target('image', 'start'), out, { transport: setup.transport, settings: { retries: 0 } });
    expect(Buffer.concat(chunks).equals(readFileSync(catalogue.file('image', 'Bench_Press', 'start')))).toBe(true);
    expect(out.writableEnded).toBe(false);

    setup.intercept = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>');
      return true;
    };
    const out2 = new PassThrough();
    const got: Buffer[] = [];
    out2.on('data', (c: Buffer) => got.push(c));
    await expect(downloadToStream(target('image', 'start'), out2, { transport: setup.transport, settings: { retries: 0 } })).rejects.toBeInstanceOf(
      MalformedResponseError,
    );
    expect(Buffer.concat(got).length).toBe(0);
  });
});
