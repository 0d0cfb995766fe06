/**
 * `--limit-rate`: one budget of bytes per second for every media body of a command, shared by
 * the whole download pool (curl's --limit-rate, aria2c's --max-overall-download-limit), so a
 * shared or metered link sees the command's total stay at or under the limit, however many
 * files are in flight.
 *
 * The bucket is a GCRA (a token bucket kept as one time): each chunk that arrives is charged to
 * it, which moves the moment the bytes so far are paid for; a body that is ahead of that moment
 * (beyond a small burst) is paused, and the socket with it (the transport stops reading, so the
 * sender slows down through TCP), until it is paid for. Bodies wait in the order they were
 * charged, so the files in flight share the rate about evenly. A body's end is handed on only
 * once its bytes are paid for, so the last file of a run is no faster than the rest.
 */
import type { BodyConsumer, BodyControl, BodySource } from '../../http/exchange.js';
import { MEDIA_MIN_BYTES_PER_SECOND, nowMs } from '../../config/time-limits.js';

/** How far ahead of the rate a body may run before it is paused, in ms: a burst of a tenth of a second. */
const BURST_MS = 100;

/**
 * The least average rate a download must keep to stay within its deadline (config/time-limits.ts mediaMs):
 * MEDIA_MIN_BYTES_PER_SECOND, or less under a limit that cannot give each of `streams` files
 * that much. The pool shares the limit about evenly; half of an even share leaves room for the
 * unevenness of chunk sizes, so a limit, however low, never makes a download time out.
 */
export function mediaMinRate(limit: RateLimit | undefined, streams: number): number {
  if (!limit) return MEDIA_MIN_BYTES_PER_SECOND;
  return Math.min(MEDIA_MIN_BYTES_PER_SECOND, limit.bytesPerSecond / Math.max(1, streams) / 2);
}

export class RateLimit {
  /** When every byte charged so far is paid for, in ms on `now`'s clock. */
  private paidAt = Number.NEGATIVE_INFINITY;

  constructor(
    readonly bytesPerSecond: number,
    private readonly now: () => number = nowMs,
  ) {}

  /** Charges `bytes` that just arrived; returns how long, in ms, the body should wait before reading more. */
  charge(bytes: number): number {
    const t = this.now();
    this.paidAt = Math.max(this.paidAt, t) + (bytes * 1000) / this.bytesPerSecond;
    return this.delay(t);
  }

  /** How long, in ms, until the bytes charged so far are paid for (less the burst allowed). */
  delay(t = this.now()): number {
    return Math.max(0, this.paidAt - BURST_MS - t);
  }

  /** `source` read no faster than this limit allows, shared with every other body it throttles. */
  throttle(source: BodySource): BodySource {
    return { start: (consumer) => throttled(this, source, consumer) };
  }
}

/**
 * Starts `source` for `consumer`, pausing it while the limit is ahead. The source is read again
 * only when both agree: the limit has been paid and the consumer has not asked for a pause.
 */
function throttled(limit: RateLimit, source: BodySource, consumer: BodyConsumer): BodyControl {
  let timer: NodeJS.Timeout | undefined;
  let consumerPaused = false;
  /** The body's end arrived and is held until its bytes are paid for. */
  let endHeld = false;
  let control: BodyControl | undefined;

  // Not unref'd: a body's end may be waiting on it, with the socket already closed.
  const wait = (ms: number): void => void (timer = setTimeout(release, ms));
  const release = (): void => {
    timer = undefined;
    const left = limit.delay();
    if (left > 0) return wait(left); // more was charged meanwhile (a chunk already read)
    if (endHeld) {
      endHeld = false;
      consumer.onEnd();
    } else if (!consumerPaused) control?.resume();
  };

  control = source.start({
    onData(chunk) {
      const more = consumer.onData(chunk);
      if (!more) consumerPaused = true;
      const ms = limit.charge(chunk.length);
      if (ms > 0 && timer === undefined) wait(ms);
      return more && timer === undefined;
    },
    onEnd() {
      if (timer === undefined) consumer.onEnd();
      else endHeld = true;
    },
    onError(err) {
      // A failure is passed on at once: the bytes that arrived are kept whatever the limit.
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      consumer.onError(err);
    },
  });
  return {
    resume() {
      consumerPaused = false;
      if (timer === undefined) control?.resume();
    },
    destroy() {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      endHeld = false;
      control?.destroy();
    },
  };
}
