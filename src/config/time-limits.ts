/**
 * The time model: every time limit of a request and of a command, computed from the two settings a
 * user sees, --timeout (the patience for each pause) and --deadline (a whole command's answer).
 * Each rule is stated once, here, with its reason; the transport (http/attempt.ts), the downloader
 * and the team proxy ask it. Also the two clocks that hold the whole-life limits (undici holds the
 * idle ones). docs/design.md "Time limits".
 */
import { NetworkError } from '../errors.js';

/** What the limits are computed from: the two settings, in ms (a deadline of 0: none), and where the deadline was set. */
export interface TimeSettings {
  timeout: number;
  deadline: number;
  from: { deadline: { source: string; origin?: string | undefined } };
}

type Timeout = Pick<TimeSettings, 'timeout'>;
type Redact = (text: string) => string;

/**
 * Idle: connecting, waiting for the answer's head, and each pause in its body may each take
 * --timeout (undici's connect, headers and body timeouts). A slow link that keeps sending never
 * trips it, so it is the patience for one silence, not for a whole answer.
 */
export function idleMs(settings: Timeout): number {
  return settings.timeout;
}

/**
 * A request's whole life, first byte to last, for JSON answers (the CLI's, and the team proxy's
 * upstream answers its clients wait on): idle limits alone let a server dripping a byte inside
 * each hold a request for ever, so a request gets one --timeout for each of connecting, its head
 * and its body.
 */
export const TIMEOUTS_PER_REQUEST = 3;

export function requestMs(settings: Timeout): number {
  return TIMEOUTS_PER_REQUEST * settings.timeout;
}

/**
 * A media download's whole life grows with what arrived: after a request's allowance it must
 * average this rate, so a file of S bytes is done within requestMs + S / rate whatever its size,
 * and a stream that slows to a trickle is cut. --limit-rate lowers the rate to fit
 * (media/download/rate-limit.ts mediaMinRate).
 */
export const MEDIA_MIN_BYTES_PER_SECOND = 8 * 1024;

export function mediaMs(settings: Timeout, receivedBytes: number, minBytesPerSecond = MEDIA_MIN_BYTES_PER_SECOND): number {
  return requestMs(settings) + (receivedBytes * 1000) / minBytesPerSecond;
}

/**
 * The whole command: --deadline bounds the busy time of its JSON requests and of the waits between
 * their retries (a person who sets nothing expects a command to give up within about a minute).
 * The bulk commands, which may rightly spend long on JSON requests (a mirror asks for every
 * record), have none unless one is set; their media are bounded by mediaMs.
 */
export const COMMANDS_WITHOUT_DEFAULT_DEADLINE: readonly string[] = ['download', 'mirror'];

/**
 * The command's deadline in force for `command` (as commander resolved it: an id spelled `mirror`
 * is no mirror), or undefined for none. A run answered in-process from a local catalogue
 * (`local`: --catalogue, --sandbox) has none, set or not: no request of it crosses a network,
 * and listing 150,000 records takes what it takes.
 */
export function commandDeadline(settings: Pick<TimeSettings, 'deadline' | 'from'>, command: string | undefined, local = false): CommandDeadline | undefined {
  const { source, origin } = settings.from.deadline;
  const spared = source === 'default' && command !== undefined && COMMANDS_WITHOUT_DEFAULT_DEADLINE.includes(command);
  if (settings.deadline === 0 || spared || local) return undefined;
  // A flag or variable names itself; the others are named in words.
  return new CommandDeadline(settings.deadline, origin ?? (source === 'config' ? 'the deadline setting' : 'the default; --deadline changes it'));
}

/** Milliseconds from a monotonic clock. */
export function nowMs(): number {
  return Number(process.hrtime.bigint() / 1_000_000n);
}

/** The failure of a request past its whole life (requestMs, or mediaMs with `media`), as a timeout. */
export function deadlineError(url: URL, elapsedMs: number, settings: Timeout, media: { minBytesPerSecond?: number } | undefined, redact: Redact): NetworkError {
  const ms = requestMs(settings);
  const rate = media?.minBytesPerSecond ?? MEDIA_MIN_BYTES_PER_SECOND;
  const rule = !media
    ? `a request may take at most ${TIMEOUTS_PER_REQUEST} × --timeout, ${ms} ms`
    : `after ${ms} ms a download must average at least ${rate >= 1024 ? `${Math.round(rate / 1024)} KiB/s` : `${Math.floor(rate)} B/s`}`;
  return new NetworkError(`${url.host} took ${Math.round(elapsedMs)} ms and had not finished its answer (${rule}).`, {
    kind: 'timeout',
    hint: 'The server is answering too slowly; --timeout sets how patient the client is.',
    details: { url: redact(url.href), code: 'DEADLINE' },
  });
}

/**
 * The clock of one request's whole life: runs `expire` once the time since `startedMs` passes
 * `allowedMs()`, unless the function returned is called first. The allowance may grow as bytes
 * arrive: the timer then sleeps again until the new limit, so it wakes a few times per request at
 * most, never per chunk.
 */
export function startDeadline(startedMs: number, allowedMs: () => number, expire: (elapsedMs: number) => void): () => void {
  let timer: NodeJS.Timeout | undefined;
  let done = false;
  const arm = (): void => {
    if (done) return;
    const elapsed = nowMs() - startedMs;
    const left = allowedMs() - elapsed;
    done = left <= 0;
    // Node's timers stop at 2^31-1 ms; a longer limit is simply looked at again then.
    if (done) expire(elapsed);
    else timer = setTimeout(arm, Math.min(Math.ceil(left), 2 ** 31 - 1));
  };
  arm();
  return () => {
    done = true;
    clearTimeout(timer);
  };
}

/**
 * The clock of the whole command's deadline. It counts busy time, the moments at least one JSON
 * request or retry wait is under way, not wall time: a command reading ids from a slow pipe is not
 * charged for the pipe, and eight requests side by side cost the time of one.
 */
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
