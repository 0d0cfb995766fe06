/**
 * The whole command's deadline (`--deadline`, EXERCISES_DEADLINE, `config set deadline`;
 * 60 s by default): a bound on the time a command spends waiting for the service on JSON
 * requests — attempts, retries and the waits between them (Retry-After included) — however
 * many requests it makes. The per-request rules of deadline.ts still apply inside it
 * (--timeout bounds each idle gap; 3 × --timeout each request), and media streams keep their
 * progress rule and are not counted.
 *
 * It counts busy time, the union of the moments at least one JSON request (or a retry wait) is
 * under way, not wall time: a command reading ids from a slow pipe is not charged for the
 * pipe, and eight requests side by side cost the time of one.
 */
import { NetworkError } from '../errors.js';
import { nowMs } from './deadline.js';
import type { Exchange } from './exchange.js';

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

  spentMs(): number {
    return this.spent + (this.inFlight > 0 ? nowMs() - this.busySince : 0);
  }

  remainingMs(): number {
    return Math.max(0, this.limitMs - this.spentMs());
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
 * The transport layer (exchange.ts) that puts JSON attempts under the command's deadline: none
 * is even counted once the deadline has run out, and each carries it down to attempt.ts, which
 * counts its time as busy and cuts it at what is left. The waits between attempts are counted
 * by retry.ts.
 */
export function underDeadline(next: Exchange, deadline: CommandDeadline): Exchange {
  return (request) => {
    if (deadline.remainingMs() === 0) return Promise.reject(deadline.error(request.what));
    return next({ ...request, command: deadline });
  };
}
