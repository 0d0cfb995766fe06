/**
 * The time bounds of requests (docs/design.md "Reliability and security rules"), past which a
 * request fails as a timeout (exit 6). undici's timeouts are idle ones, which a server dripping
 * a byte inside each never trips, so each request's whole life is bounded too: a JSON request
 * by DEADLINE_TIMEOUT_FACTOR × --timeout, a media stream by a least average rate after that grace.
 *
 * The whole command's deadline (--deadline) bounds the time spent waiting on JSON requests and
 * retry waits. It counts busy time, the moments at least one of them is under way, not wall
 * time: a command reading ids from a slow pipe is not charged for the pipe, and eight requests
 * side by side cost the time of one.
 */
import { NetworkError } from '../errors.js';
import { DEADLINE_TIMEOUT_FACTOR, MEDIA_MIN_BYTES_PER_SECOND } from '../defaults.js';
import type { Exchange, Progress } from './exchange.js';

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

/** The failure of a request past its whole-life bound; `json` picks the rule named in the message. */
export function deadlineError(url: URL, elapsedMs: number, timeoutMs: number, media: Progress | undefined, redactText: (text: string) => string): NetworkError {
  const ms = jsonDeadlineMs(timeoutMs);
  const rate = media?.minBytesPerSecond ?? MEDIA_MIN_BYTES_PER_SECOND;
  const rule = !media
    ? `a request may take at most ${DEADLINE_TIMEOUT_FACTOR} × --timeout, ${ms} ms`
    : `after ${ms} ms a download must average at least ${rate >= 1024 ? `${Math.round(rate / 1024)} KiB/s` : `${Math.floor(rate)} B/s`}`;
  return new NetworkError(`${url.host} took ${Math.round(elapsedMs)} ms and had not finished its answer (${rule}).`, {
    kind: 'timeout',
    hint: 'The server is answering too slowly; --timeout sets how patient the client is.',
    details: { url: redactText(url.href), code: 'DEADLINE' },
  });
}

/**
 * Runs `expire` once the time since `startedMs` passes `allowedMs()`, unless the function returned
 * is called first. The allowance may grow as bytes arrive: the timer then sleeps again until the
 * new bound, so it wakes a few times per request at most, never per chunk.
 */
export function startDeadline(startedMs: number, allowedMs: () => number, expire: (elapsedMs: number) => void): () => void {
  let timer: NodeJS.Timeout | undefined;
  let done = false;
  const arm = (): void => {
    if (done) return;
    const elapsed = nowMs() - startedMs;
    const left = allowedMs() - elapsed;
    done = left <= 0;
    // Node's timers stop at 2^31-1 ms; a longer bound is simply looked at again then.
    if (done) expire(elapsed);
    else timer = setTimeout(arm, Math.min(Math.ceil(left), 2 ** 31 - 1));
  };
  arm();
  return () => {
    done = true;
    clearTimeout(timer);
  };
}

/** The whole command's deadline: the busy time its JSON requests and retry waits may take. */
export class CommandDeadline {
  private inFlight = 0;
  private busySince = 0;
  private spent = 0;

  /** `limitMs`: the whole allowance; `origin`: where it was set, for the message (`--deadline`, `the default`…). */
  constructor(
    readonly limitMs: number,
    readonly origin: string,
  ) {}

  /** Marks the start of a request or wait; the function returned marks its end (call it once). */
  begin(): () => void {
    if (this.inFlight++ === 0) this.busySince = nowMs();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      if (--this.inFlight === 0) this.spent += nowMs() - this.busySince;
    };
  }

  remainingMs(): number {
    return Math.max(0, this.limitMs - this.spent - (this.inFlight > 0 ? nowMs() - this.busySince : 0));
  }

  /** The error that ends the command: `what` is the request, `why` what was going on (`waiting 60 s as Retry-After asked`). */
  error(what: string, why?: string): NetworkError {
    const seconds = Math.round(this.limitMs / 100) / 10;
    return new NetworkError(`The command's deadline of ${seconds} s (${this.origin}) ran out${why ? ` ${why}` : ''} on ${what}.`, {
      kind: 'timeout',
      hint: 'The service is answering too slowly or asks to wait too long; --deadline <seconds> (0: none) sets the bound for the whole command, --timeout the patience for each pause.',
      details: { code: 'COMMAND_DEADLINE', deadlineMs: this.limitMs, request: what },
    });
  }
}

/** Whether `err` is the command's deadline running out: never retried, it ends the command. */
export function isCommandDeadline(err: unknown): boolean {
  return err instanceof NetworkError && err.details?.code === 'COMMAND_DEADLINE';
}

/**
 * The transport layer that puts JSON attempts under the command's deadline: none is even counted
 * once it has run out, and each carries it down to attempt.ts, which counts its time as busy and
 * cuts it at what is left. The retry layer counts the waits between attempts.
 */
export function underDeadline(next: Exchange, deadline: CommandDeadline): Exchange {
  return (request) => {
    if (deadline.remainingMs() === 0) return Promise.reject(deadline.error(request.what));
    return next({ ...request, command: deadline });
  };
}
