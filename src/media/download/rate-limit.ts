/**
 * `--limit-rate`: one budget of bytes per second shared by every media body of a command (as curl's),
 * kept as a GCRA: each chunk is charged, and a body ahead of what is paid for (beyond a small burst) is
 * paused with its socket, so the sender slows through TCP. Bodies wait in the order charged, sharing the
 * rate about evenly; a body's end is handed on only once paid for.
 */
import type { BodyConsumer, BodyControl, BodySource } from '../../http/exchange.js';
import { MEDIA_MIN_BYTES_PER_SECOND, nowMs } from '../../config/time-limits.js';

/** How far ahead of the rate a body may run before it is paused, in ms. */
const BURST_MS = 100;

/**
 * The least average rate a download must keep to meet its deadline: MEDIA_MIN_BYTES_PER_SECOND, or half
 * of an even share of a lower limit, so a limit, however low, never makes a download time out.
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

  /** Charges `bytes` just arrived; returns how long (ms) the body should wait. */
  charge(bytes: number): number {
    const t = this.now();
    this.paidAt = Math.max(this.paidAt, t) + (bytes * 1000) / this.bytesPerSecond;
    return this.delay(t);
  }

  /** Ms until the bytes charged so far are paid for, less the burst. */
  delay(t = this.now()): number {
    return Math.max(0, this.paidAt - BURST_MS - t);
  }

  /** `source` read no faster than this limit allows, shared with every other body it throttles. */
  throttle(source: BodySource): BodySource {
    return { start: (consumer) => throttled(this, source, consumer) };
  }
}

/** Starts `source` for `consumer`, read again only once the limit is paid and the consumer has not paused it. */
function throttled(limit: RateLimit, source: BodySource, consumer: BodyConsumer): BodyControl {
  let timer: NodeJS.Timeout | undefined;
  let consumerPaused = false;
  /** The body's end, held until its bytes are paid for. */
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
