/**
 * Class 6, two processes and one file, and the completeness rule: two `download` processes
 * into one folder, from a server that sends no Content-Length, end with the file whole (the
 * per-file lock, the fd-verified rename); a body with no length is accepted only when it is
 * chunked and ends cleanly — one that just stops is never taken for the file.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Attack, type HostileServer, json, pngBytes, slowChunked, startHostileServer } from '../helpers/hostile-server.js';
import { runCli } from '../helpers/run-cli.js';
import { KEY, cli, filesUnder } from './support.js';
import { tempDir } from '../helpers/temp.js';

let server: HostileServer;
beforeAll(async () => (server = await startHostileServer()));
afterAll(() => server.close());
afterEach(() => server.reset());

const IMAGE = pngBytes(8 * 1024 * 1024, 3);
const download = (dir: string) =>
  runCli(['--base-url', server.url, 'download', 'A', '--images', '--dir', dir], { env: { EXERCISES_API_KEY: KEY }, timeoutMs: 60_000 });

/** Headers then `bytes`, then the connection closed: no length, no chunking, no way to know it is whole. */
function closeDelimited(bytes: Buffer): Attack {
  return (req) => {
    const socket = req.socket;
    socket.write('HTTP/1.1 200 OK\r\ncontent-type: image/png\r\nconnection: close\r\n\r\n');
    socket.end(bytes);
  };
}

/** Chunked, but the connection dies after `bytes` without the last chunk. */
function chunkedCut(bytes: Buffer): Attack {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': 'image/png' });
    res.write(bytes, () => setTimeout(() => res.socket?.destroy(), 20));
  };
}

describe('two processes, one file', () => {
  it('two downloads racing for the same file from a length-less server: the file is whole, byte for byte', async () => {
    server.route(/^\/exercise\//, json({ id: 'A', name: 'A', premiumImages: ['start'] }));
    server.route(/^\/images\//, slowChunked(IMAGE, 256 * 1024, 25));
    const dir = tempDir();
    const [a, b] = await Promise.all([download(dir), download(dir)]);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    expect(filesUnder(dir)).toEqual(['A/start.png']); // no .part, .lock or sidecar left behind
    const onDisk = readFileSync(join(dir, 'A', 'start.png'));
    expect(onDisk.length).toBe(IMAGE.length); // bytes lost: 0
    expect(onDisk.equals(IMAGE)).toBe(true);
    // A third run finds it complete and asks for nothing.
    const before = server.count(/^\/images\//);
    const c = await download(dir);
    expect(c.code, c.stderr).toBe(0);
    expect(server.count(/^\/images\//)).toBe(before);
  }, 60_000);
});

describe('completeness', () => {
  for (const [what, attack] of [
    ['ends by closing the connection', closeDelimited(IMAGE.subarray(0, 1_000_000))],
    ['is chunked but cut before its last chunk', chunkedCut(IMAGE.subarray(0, 1_000_000))],
  ] as const) {
    it(`a length-less body that ${what} is never kept as the file`, async () => {
      server.route(/^\/exercise\//, json({ id: 'A', name: 'A', premiumImages: ['start'] }));
      server.route(/^\/images\//, attack);
      const dir = tempDir();
      const r = await cli(server, ['--retries', '0', 'download', 'A', '--images', '--dir', dir]);
      expect(r.code, r.stderr).toBe(7);
      expect(filesUnder(dir).filter((f) => f.endsWith('.png'))).toEqual([]);
    });
  }
});
