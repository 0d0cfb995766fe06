/**
 * What the downloader accepts as a complete file, and how big: completeness must be shown (a
 * length, or chunked framing that ends cleanly; never a body ended only by a closed connection),
 * and media has a size cap per kind, refused up front when announced, cut off when passed.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { downloadFile, type MediaTarget } from '../../src/media/download-file.js';
import { MEDIA_SIZE_CAP_BYTES } from '../../src/defaults.js';
import { MalformedResponseError, NetworkError } from '../../src/errors.js';
import { closeDelimitedResponse, cutResponseAfter, dripResponse, endlessResponse } from '../helpers/faults.js';
import { pngBytes } from './media-catalogue.js';
import { readDispatched } from '../http/read-dispatched.js';
import { tempDir } from '../helpers/temp.js';
import { useDownloadServer } from './download-setup.js';

const setup = useDownloadServer([{ id: 'Plank', name: 'Plank', images: { start: 400_000 }, videos: { demo: 3_000_000 } }], { timeoutMs: 5_000 });
const catalogue = setup.catalogue;
const image = readFileSync(catalogue.file('image', 'Plank', 'start'));
const video = readFileSync(catalogue.file('video', 'Plank', 'demo'));

const imageTarget = (): MediaTarget => setup.target('image', 'Plank', 'start');
const videoTarget = (): MediaTarget => setup.target('video', 'Plank', 'demo');
const file = (name = 'start.png'): string => join(tempDir('media-bounds-'), name);
const media = (req: IncomingMessage): boolean => /^\/(images|videos)\//.test(req.url ?? '');

/** Nothing under the final name, no `.part`, no sidecar. */
function nothingLeft(path: string): void {
  expect(existsSync(path)).toBe(false);
  expect(existsSync(`${path}.part`)).toBe(false);
  expect(existsSync(`${path}.part.json`)).toBe(false);
}

describe('completeness must be shown', () => {
  it('accepts a body without Content-Length whose chunked framing ends cleanly', async () => {
    setup.intercept = (req, res) => media(req) && (dripResponse(res, image, { contentType: 'image/png', chunkBytes: 64_000, intervalMs: 2 }), true);
    const path = file();
    const result = await downloadFile(imageTarget(), path, { transport: setup.transport, settings: { retries: 0 } });
    expect(readFileSync(path).equals(image)).toBe(true);
    expect(result.size).toBe(image.length);
  });

  it('does not accept a chunked body whose connection dropped mid-body, and starts over to get it whole', async () => {
    let cuts = 1;
    setup.intercept = (req, res) => {
      if (!media(req)) return false;
      if (cuts-- > 0) cutResponseAfter(res, 150_000);
      dripResponse(res, image, { contentType: 'image/png', chunkBytes: 50_000, intervalMs: 2 });
      return true;
    };
    const path = file();
    await expect(downloadFile(imageTarget(), path, { transport: setup.transport, settings: { retries: 0 } })).rejects.toBeInstanceOf(NetworkError);
    expect(existsSync(path)).toBe(false);

    cuts = 1;
    await downloadFile(imageTarget(), path, { transport: setup.transport, settings: { retries: 1 } });
    expect(readFileSync(path).equals(image)).toBe(true);
  });

  it.each([
    ['whole', undefined],
    ['cut short', 100_000],
  ])('refuses a body ended only by closing the connection (%s): its completeness cannot be shown', async (_label, cutAfter) => {
    setup.intercept = (req, res) => media(req) && (closeDelimitedResponse(res, image, { contentType: 'image/png', ...(cutAfter ? { cutAfter } : {}) }), true);
    const path = file();
    const err = await downloadFile(imageTarget(), path, { transport: setup.transport, settings: { retries: 2 } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MalformedResponseError);
    expect((err as Error).message).toMatch(/without a length, ended only by closing the connection, so it cannot be shown complete/);
    nothingLeft(path);
    expect(setup.mediaRequests()).toHaveLength(1); // not retried: another try would be no better
  });
});

describe('the size cap', () => {
  it('refuses an announced length above the cap before writing anything', async () => {
    setup.intercept = (req, res) => media(req) && (endlessResponse(res, pngBytes(64), { contentType: 'image/png', announce: 300_000_000 }), true);
    const path = file();
    const err = await downloadFile(imageTarget(), path, { transport: setup.transport, settings: { retries: 2 } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MalformedResponseError);
    expect((err as Error).message).toBe(
      `The server announced 300000000 bytes for the image "start" of exercise Plank, more than the ${MEDIA_SIZE_CAP_BYTES.image / 1024 / 1024} MiB allowed for a PNG image; nothing was written.`,
    );
    nothingLeft(path);
    // The server records a request when its connection closes, which may be just after the client has given up.
    await vi.waitFor(() => expect(setup.mediaRequests()).toHaveLength(1));
  });

  it('cuts off a body without a length that grows past the cap, and removes what arrived', async () => {
    setup.intercept = (req, res) => media(req) && (endlessResponse(res, pngBytes(64), { contentType: 'image/png' }), true);
    const path = file();
    const seen: number[] = [];
    const err = await downloadFile(imageTarget(), path, {
      transport: setup.transport,
      settings: { retries: 2 },
      maxBytes: 2 * 1024 * 1024,
      onBytes: (n) => seen.push(n),
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MalformedResponseError);
    expect((err as Error).message).toMatch(
      /sent more than the 2 MiB allowed for a PNG image for the image "start" of exercise Plank; the download was stopped/,
    );
    nothingLeft(path);
    // Stopped at the cap: at most one more socket read past it.
    expect(seen.reduce((a, b) => a + b, 0)).toBeLessThan(2 * 1024 * 1024 + 1024 * 1024);
    await vi.waitFor(() => expect(setup.mediaRequests()).toHaveLength(1)); // recorded at the connection's close
  });

  it('uses the kind\'s default cap without maxBytes: an endless "PNG" stops at it', async () => {
    setup.intercept = (req, res) => media(req) && (endlessResponse(res, pngBytes(64), { contentType: 'image/png' }), true);
    const path = file();
    let received = 0;
    const err = await downloadFile(imageTarget(), path, { transport: setup.transport, settings: { retries: 0 }, onBytes: (n) => (received += n) }).catch(
      (e: unknown) => e,
    );
    expect((err as Error).message).toMatch(/more than the 50 MiB allowed/);
    expect(received).toBeGreaterThan(MEDIA_SIZE_CAP_BYTES.image);
    expect(received).toBeLessThan(MEDIA_SIZE_CAP_BYTES.image + 1024 * 1024);
    nothingLeft(path);
  });

  it('accepts a file exactly at the cap, and refuses it one byte lower', async () => {
    const path = file('demo.mp4');
    await downloadFile(videoTarget(), path, { transport: setup.transport, settings: { retries: 0 }, maxBytes: video.length });
    expect(readFileSync(path).equals(video)).toBe(true);
    const path2 = file('demo.mp4');
    await expect(downloadFile(videoTarget(), path2, { transport: setup.transport, settings: { retries: 0 }, maxBytes: video.length - 1 })).rejects.toThrow(
      /announced 3000000 bytes/,
    );
    nothingLeft(path2);
  });

  it('refuses to resume a .part when the Content-Range total is above the cap, and removes it', async () => {
    const probe = await setup.transport.dispatchStream(videoTarget().url);
    const etag = probe.headers.etag as string;
    await readDispatched(probe.body);
    const path = file('demo.mp4');
    writeFileSync(`${path}.part`, video.subarray(0, 1_000_000));
    writeFileSync(`${path}.part.json`, JSON.stringify({ version: 1, url: videoTarget().url.href, etag }));
    const err = await downloadFile(videoTarget(), path, { transport: setup.transport, settings: { retries: 0 }, maxBytes: 2_000_000 }).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/announced 3000000 bytes .* more than the 2000000 bytes allowed/);
    await vi.waitFor(() => expect(setup.server.requests.at(-1)).toMatchObject({ range: 'bytes=1000000-', status: 206 })); // recorded at the close
    nothingLeft(path);
  });
});
