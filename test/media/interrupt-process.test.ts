/**
 * Ctrl-C during a download, as a person does it: the built CLI as a child process fetching a
 * video from a throttled loopback server, a real SIGINT once bytes are on disk. The summary
 * must count what was kept in the `.part` and say that the next run resumes it; the exit code
 * stays the interrupt's (130).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { type CatalogueServer, PREMIUM_KEY, startServer } from '../helpers/server.js';
import { sampleCatalogueDir } from '../../src/server/sandbox.js';
import { formatBytes } from '../../src/util/format-bytes.js';
import { tempDir } from '../helpers/temp.js';

const VIDEO = '/videos/Plank/premium/demo.mp4';
/** What the throttled server claims the video weighs: far more than it sends before the Ctrl-C. */
const CLAIMED = 16_000_000;
const CHUNK = 32 * 1024;

let server: CatalogueServer;
const timers = new Set<NodeJS.Timeout>();

/** The video at about 320 kB/s: the sample's real head (its magic bytes), then filler, a chunk every 100 ms, never finishing in time. */
function throttled(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.url !== VIDEO) return false;
  const head = readFileSync(join(sampleCatalogueDir(), 'videos/Plank/premium/demo.mp4'));
  res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(CLAIMED), 'accept-ranges': 'bytes', etag: '"slow-v1"' });
  res.write(head);
  const timer = setInterval(() => res.write(Buffer.alloc(CHUNK, 7)), 100);
  timers.add(timer);
  res.on('close', () => {
    clearInterval(timer);
    timers.delete(timer);
  });
  return true;
}

beforeAll(async () => {
  server = await startServer({ intercept: throttled });
});
afterAll(async () => {
  for (const t of timers) clearInterval(t);
  await server.close();
});

describe('Ctrl-C during a download (a real SIGINT)', () => {
  it('exits 130 and the summary names the bytes kept in the .part and that the next run resumes them', async () => {
    const dir = tempDir('interrupt-');
    const part = join(dir, 'Plank', 'demo.mp4.part');
    let poll: NodeJS.Timeout | undefined;
    const r = await runCli(['download', 'Plank', '--videos', '--dir', dir], {
      env: { EXERCISES_BASE_URL: server.url, EXERCISES_API_KEY: PREMIUM_KEY },
      timeoutMs: 20_000,
      onSpawn: (child) => {
        // Ctrl-C once some 100 kB are on disk: the download is surely under way then.
        poll = setInterval(() => {
          if (existsSync(part) && statSync(part).size > 100_000) {
            clearInterval(poll);
            child.kill('SIGINT');
          }
        }, 20);
      },
    });
    clearInterval(poll);
    expect(r.signal).toBeNull();
    expect(r.code).toBe(130);
    expect(existsSync(join(dir, 'Plank', 'demo.mp4'))).toBe(false);
    const kept = statSync(part).size;
    expect(kept).toBeGreaterThan(100_000);
    expect(kept).toBeLessThan(CLAIMED);
    expect(r.stderr).toContain('Interrupted after it fetched 0 of 1 file (0 B)');
    expect(r.stderr).toContain(`${formatBytes(kept)} kept in ${part}, resumed by the next run.`);
    expect(r.stderr).toMatch(/partial ones resume/);
  });
});
