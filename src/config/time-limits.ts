/**
 * The time model: every time limit of a request and of a command, computed from --timeout (the
 * patience for each pause) and --deadline (a whole command's answer), each rule stated once here.
 * docs/design.md "Time limits".
 */
import { NetworkError } from '../errors.js';

/** The two settings, in ms (a deadline of 0: none), and where the deadline was set. */
export interface TimeSettings {
  timeout: number;
  deadline: number;
  from: { deadline: { source: string; origin?: string | undefined } };
}

type Timeout = Pick<TimeSettings, 'timeout'>;
type Redact = (text: string) => string;

/** Idle: connecting, the head, and each pause in the body may each take --timeout; a slow steady link never trips it. */
export function idleMs(settings: Timeout): number {
  return settings.timeout;
}

/**
 * A JSON request's whole life: one --timeout each for connecting, its head and its body, so a
 * server dripping a byte within each idle limit cannot hold it for ever.
 */
export const TIMEOUTS_PER_REQUEST = 3;

export function requestMs(settings: Timeout): number {
  return TIMEOUTS_PER_REQUEST * settings.timeout;
}

/**
 * After a request's allowance a media download must average this rate (or --limit-rate's), so a
 * file of S bytes is done within requestMs + S / rate and a trickle is cut.
 */
export const MEDIA_MIN_BYTES_PER_SECOND = 8 * 1024;

export function mediaMs(settings: Timeout, receivedBytes: number, minBytesPerSecond = MEDIA_MIN_BYTES_PER_SECOND): number {
  return requestMs(settings) + (receivedBytes * 1000) / minBytesPerSecond;
}

/**
 * --deadline bounds the busy time of a command's JSON requests and retry waits (about a minute by
 * default). The bulk commands, which may rightly take long, have none unless set; their media are bounded by mediaMs.
 */
export const COMMANDS_WITHOUT_DEFAULT_DEADLINE: readonly string[] = ['download', 'mirror'];

/**
 * The deadline in force for `command` (as commander resolved it), or undefined for none. A run
 * answered in-process from a local catalogue (`local`: --catalogue, --sandbox) has none, set or
 * not: no request of it crosses a network.
 */
export function commandDeadline(settings: Pick<TimeSettings, 'deadline' | 'from'>, command: string | undefined, local = false): CommandDeadline | undefined {
  const { source, origin } = settings.from.deadline;
  const spared = source === 'default' && command !== undefined && COMMANDS_WITHOUT_DEFAULT_DEADLINE.includes(command);
  if (settings.deadline === 0 || spared || local) return undefined;
  return new CommandDeadline(settings.deadline, origin ?? (source === 'config' ? 'the deadline setting' : 'the default; --deadline changes it'));
}

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

/** A proxy warns this long before its TLS certificate ends: time to renew it. */
export const CERT_RENEWAL_WARNING_MS = 14 * DAY_MS;

/** A watched keys file is reread this long after its last change: an editor's several writes make one reload. */
export const KEYS_FILE_SETTLE_MS = 250;

export function nowMs(): number {
  return Number(process.hrtime.bigint() / 1_000_000n);
}

/** A request past its whole life (requestMs, or mediaMs with `media`), as a timeout. */
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
 * The clock of one request's whole life: calls `expire` once `allowedMs()` has passed, unless stopped
 * first. As the allowance grows with bytes the timer sleeps again, waking a few times per request, never per chunk.
 */
export function startDeadline(startedMs: number, allowedMs: () => number, expire: (elapsedMs: number) => void): () => void {
  let timer: NodeJS.Timeout | undefined;
  let done = false;
  const arm = (): void => {
    if (done) return;
    const elapsed = nowMs() - startedMs;
    const left = allowedMs() - elapsed;
    done = left <= 0;
    // Timers stop at 2^31-1 ms; a longer limit is looked at again then.
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
 * The clock of the command's deadline. It counts busy time (at least one JSON request or retry wait
 * under way), not wall time: a slow stdin costs nothing, and eight requests side by side cost one.
 */
export class CommandDeadline {
  private inFlight = 0;
  private busySince = 0;
  private spent = 0;

  constructor(
    readonly limitMs: number,
    readonly origin: string,
  ) {}

  /** Marks the start of a request or wait; call the function returned once at its end. */
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

  /** The error that ends the command: `what` is the request, `why` what was going on. */
  error(what: string, why?: string): NetworkError {
    const seconds = Math.round(this.limitMs / 100) / 10;
    return new NetworkError(`The command's deadline of ${seconds} s (${this.origin}) ran out${why ? ` ${why}` : ''} on ${what}.`, {
      kind: 'timeout',
      hint: 'The service is answering too slowly or asks to wait too long; --deadline <seconds> (0: none) sets the bound for the whole command, --timeout the patience for each pause.',
      details: { code: 'COMMAND_DEADLINE', deadlineMs: this.limitMs, request: what },
    });
  }
}

/** Whether `err` is the command's deadline running out (never retried). */
export function isCommandDeadline(err: unknown): boolean {
  return err instanceof NetworkError && err.details?.code === 'COMMAND_DEADLINE';
}

/** A team proxy's lasting trouble (its upstream key refused, its shared state down) is said on its log at most this often. */
export const PROXY_NOTICE_MS = 60_000;

/**
 * The team proxy's shared state (src/proxy/shared-state.ts). A Redis command unanswered within
 * SHARED_STATE_COMMAND_MS counts as Redis down (a miss is refused, never sent uncounted); the
 * reconnect waits grow by SHARED_STATE_RECONNECT_STEP_MS a try up to SHARED_STATE_RECONNECT_MAX_MS;
 * a miss refused meanwhile asks the client to come back after SHARED_STATE_RETRY_AFTER_S.
 */
export const SHARED_STATE_COMMAND_MS = 2_000;
export const SHARED_STATE_RECONNECT_STEP_MS = 100;
export const SHARED_STATE_RECONNECT_MAX_MS = 2_000;
export const SHARED_STATE_RETRY_AFTER_S = 5;

/**
 * A replica's fill lock expires after FILL_LOCK_MS unless renewed (every third of it while the fill
 * runs), so a replica that dies mid-fill holds the others back no longer; they look whether it is
 * gone every FILL_POLL_MS.
 */
export const FILL_LOCK_MS = 10_000;
export const FILL_POLL_MS = 25;
