/**
 * The time model (src/config/time-limits.ts): a request's whole life, so a server that drips a
 * byte just inside every idle timeout is cut off, for JSON (3 × --timeout) and for media (a
 * minimum average rate after the same allowance), as a timeout: NetworkError kind 'timeout', exit 6;
 * and which commands have a deadline by default.
 */
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import {
  MEDIA_MIN_BYTES_PER_SECOND,
  TIMEOUTS_PER_REQUEST,
  commandDeadline,
  idleMs,
  mediaMs,
  nowMs,
  requestMs,
  startDeadline,
} from '../../src/config/time-limits.js';
import { NetworkError } from '../../src/errors.js';
import { PNG_SIGNATURE } from '../../src/media/verify.js';
import { runCli } from '../helpers/run-cli.js';
import { closeAll, serve, transport } from '../http/local-server.js';
import { readDispatched } from '../http/read-dispatched.js';

afterEach(closeAll);

/** Sends `head`, then one byte of `filler` every `everyMs`, for ever (until the client goes). */
function drip(res: ServerResponse, head: Buffer | string, everyMs: number, filler = ' '): void {
  res.write(head);
  const timer = setInterval(() => {
    if (res.destroyed || res.socket?.destroyed) clearInterval(timer);
    else res.write(filler);
  }, everyMs);
  res.on('close', () => clearInterval(timer));
}

describe('deadline rules', () => {
  it('idle: --timeout; a request: TIMEOUTS_PER_REQUEST × --timeout; media: that plus the bytes at the minimum rate', () => {
    expect(idleMs({ timeout: 500 })).toBe(500);
    expect(requestMs({ timeout: 500 })).toBe(TIMEOUTS_PER_REQUEST * 500);
    expect(mediaMs({ timeout: 500 }, 0)).toBe(TIMEOUTS_PER_REQUEST * 500);
    expect(mediaMs({ timeout: 500 }, MEDIA_MIN_BYTES_PER_SECOND * 10)).toBe(TIMEOUTS_PER_REQUEST * 500 + 10_000);
    expect(mediaMs({ timeout: 500 }, 1024, 512)).toBe(TIMEOUTS_PER_REQUEST * 500 + 2_000);
  });

  it('the command deadline: --deadline in force, none at 0, none by default for download and mirror', () => {
    const set = (source: string, origin?: string) => ({ deadline: 60_000, from: { deadline: { source, ...(origin ? { origin } : {}) } } });
    expect(commandDeadline(set('default'), 'show')).toMatchObject({ limitMs: 60_000, origin: 'the default; --deadline changes it' });
    expect(commandDeadline(set('default'), 'download')).toBeUndefined();
    expect(commandDeadline(set('default'), 'mirror')).toBeUndefined();
    expect(commandDeadline(set('config'), 'mirror')).toMatchObject({ origin: 'the deadline setting' });
    expect(commandDeadline(set('flag', '--deadline'), 'download')).toMatchObject({ origin: '--deadline' });
    expect(commandDeadline({ ...set('flag', '--deadline'), deadline: 0 }, 'show')).toBeUndefined();
  });

  it('no command deadline for a run answered from a local catalogue, set or not', () => {
    const set = (source: string, origin?: string) => ({ deadline: 60_000, from: { deadline: { source, ...(origin ? { origin } : {}) } } });
    expect(commandDeadline(set('default'), 'ids', true)).toBeUndefined();
    expect(commandDeadline(set('flag', '--deadline'), 'ids', true)).toBeUndefined();
    expect(commandDeadline(set('config'), 'query', true)).toBeUndefined();
    expect(commandDeadline(set('default'), 'ids', false)).toMatchObject({ limitMs: 60_000 });
  });

  it('a deadline whose allowance grows sleeps again, and fires once, never before the grown allowance', async () => {
    // The allowance grows once the first sleep is over, as a download's does with its bytes: the
    // second look must sleep again, whatever the machine's load makes of the first timer.
    const allowances = [60, 150];
    const looks: number[] = [];
    const started = nowMs();
    const fired = await new Promise<number>((resolve) => {
      startDeadline(
        started,
        () => {
          looks.push(nowMs() - started);
          return allowances[Math.min(looks.length - 1, 1)]!;
        },
        resolve,
      );
    });
    expect(looks.length).toBeGreaterThanOrEqual(2);
    expect(looks[1]).toBeGreaterThanOrEqual(59);
    expect(fired).toBeGreaterThanOrEqual(150);
  });

  it('a deadline stopped before its time never fires', async () => {
    let fired = false;
    const stop = startDeadline(
      nowMs(),
      () => 20,
      () => (fired = true),
    );
    stop();
    await new Promise((r) => setTimeout(r, 60));
    expect(fired).toBe(false);
  });
});

describe('a server dripping a byte every 300 ms', () => {
  it('fails a JSON request with --timeout 500 within its deadline, as a timeout', async () => {
    const { url, seen } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      drip(res, '{"padding":"', 300, 'a');
    });
    const started = Date.now();
    const err = await transport({ baseUrl: url, settings: { timeout: 500, retries: 0 } })
      .getJson('/exercise/x')
      .catch((e: unknown) => e);
    const elapsed = Date.now() - started;
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).code).toBe('timeout');
    expect((err as NetworkError).exitCode).toBe(6);
    expect((err as Error).message).toMatch(/3 × --timeout, 1500 ms/);
    expect(elapsed).toBeGreaterThanOrEqual(1400);
    expect(elapsed).toBeLessThan(4000);
    expect(seen).toHaveLength(1);
  });

  it('ends `show --timeout 500` in bounded time with exit 6', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      drip(res, '{"id":"', 300, 'a');
    });
    const started = Date.now();
    const r = await runCli(['show', 'Push_Up', '--timeout', '500', '--retries', '0', '--base-url', url, '--api-key', 'k'], { timeoutMs: 15_000 });
    expect(r.signal).toBeNull();
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/had not finished its answer/);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('fails a media stream that stays under the minimum rate, as a timeout', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      drip(res, PNG_SIGNATURE, 300, 'x');
    });
    const t = transport({ baseUrl: url, settings: { timeout: 500, retries: 0 } });
    const started = Date.now();
    const res = await t.dispatchStream('/images/a/premium/b.png');
    const failure = (await readDispatched(res.body)).error;
    const err = t.streamError(failure, res.url);
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.code).toBe('timeout');
    expect(err.message).toMatch(/must average at least 8 KiB\/s/);
    // Grace 1500 ms, plus a few bytes at 8 KiB/s: well within 4 s.
    expect(Date.now() - started).toBeLessThan(4000);
  });

  it('lets a media stream that keeps the rate run past the grace', async () => {
    const chunk = Buffer.alloc(16 * 1024, 1);
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(8 + 20 * chunk.length) });
      res.write(PNG_SIGNATURE);
      let sent = 0;
      const timer = setInterval(() => {
        res.write(chunk);
        if (++sent === 20) {
          clearInterval(timer);
          res.end();
        }
      }, 100); // 160 KiB/s for 2 s: past the 1.5 s grace, far above the minimum rate
      res.on('close', () => clearInterval(timer));
    });
    const t = transport({ baseUrl: url, settings: { timeout: 500, retries: 0 } });
    const res = await t.dispatchStream('/images/a/premium/b.png');
    const { bytes, error } = await readDispatched(res.body);
    expect(error).toBeUndefined();
    expect(bytes).toBe(8 + 20 * chunk.length);
  });
});
