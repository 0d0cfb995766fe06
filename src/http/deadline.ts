/**
 * A bound on each request's whole life (docs/design.md "Reliability and security rules"). undici's
 * timeouts (connect, headers, body) are idle timeouts: a server that drips a byte just inside
 * each of them never trips one, and would hold the CLI for ever. The rules, from --timeout:
 *
 * - a JSON request: connect to last body byte within DEADLINE_TIMEOUT_FACTOR × --timeout
 *   (3 × by default: connect, headers and body may each take one --timeout);
 * - a media stream: after the same grace, it must average MEDIA_MIN_BYTES_PER_SECOND, so at
 *   any moment it may have taken grace + bytes received / that rate — a file of known size S
 *   is done within grace + S / rate, and an endless trickle is cut however it is sent.
 *
 * A request past its bound fails with NetworkError kind 'timeout' (exit 6), like any timeout.
 */
import { DEADLINE_TIMEOUT_FACTOR, MEDIA_MIN_BYTES_PER_SECOND } from '../defaults.js';

/** The whole life allowed to a JSON request, in ms. */
export function jsonDeadlineMs(timeoutMs: number): number {
  return DEADLINE_TIMEOUT_FACTOR * timeoutMs;
}

/** The time a media stream may have taken, in ms, once `receivedBytes` of it have arrived. */
export function mediaDeadlineMs(timeoutMs: number, receivedBytes: number, minBytesPerSecond = MEDIA_MIN_BYTES_PER_SECOND): number {
  return DEADLINE_TIMEOUT_FACTOR * timeoutMs + (receivedBytes * 1000) / minBytesPerSecond;
}

/** Milliseconds from a monotonic clock (process.hrtime: the `performance` global would load perf_hooks). */
export function nowMs(): number {
  return Number(process.hrtime.bigint() / 1_000_000n);
}

/**
 * Runs `expire` once the time since `startedMs` passes `allowedMs()`. The allowance may grow
 * as the request goes (bytes arrive): the timer then sleeps again until the new bound, so it
 * wakes up a few times per request at most, never per chunk.
 */
export class Deadline {
  private timer: NodeJS.Timeout | undefined;
  private done = false;

  constructor(
    private readonly startedMs: number,
    private readonly allowedMs: () => number,
    private readonly expire: (elapsedMs: number) => void,
  ) {
    this.arm();
  }

  private arm(): void {
    this.timer = undefined;
    if (this.done) return;
    const elapsed = nowMs() - this.startedMs;
    const left = this.allowedMs() - elapsed;
    if (left <= 0) {
      this.done = true;
      this.expire(elapsed);
    } else {
      // Node's timers stop at 2^31-1 ms; a longer bound is simply looked at again then.
      this.timer = setTimeout(() => this.arm(), Math.min(Math.ceil(left), 2 ** 31 - 1));
    }
  }

  clear(): void {
    this.done = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
