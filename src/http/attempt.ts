/**
 * Cancelling one request attempt, for whichever reason comes first: Ctrl-C (the transport's
 * signal), the caller's own signal (a bulk job's), or the attempt's deadline (deadline.ts).
 *
 * undici's request() takes one `signal`, an AbortSignal or an EventEmitter with `aborted` and
 * `reason`, and fails the request (or destroys its body) with that reason. Each attempt gets a
 * small EventEmitter of its own; the AbortSignals it listens to are watched through
 * SignalWatch, which keeps ONE listener per signal for all its attempts in flight rather than
 * one per attempt: paging `--all` makes hundreds of requests on the same Ctrl-C signal, and a
 * listener added and removed each time shows in profiles. The watch forgets a signal once its
 * last attempt has finished, so a long run that passes a new signal per job keeps nothing.
 */
import { EventEmitter } from 'node:events';

/** The `signal` handed to undici for one attempt. */
export class AttemptSignal extends EventEmitter {
  aborted = false;
  reason: unknown = undefined;

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.emit('abort');
  }
}

interface Watched {
  attempts: Set<AttemptSignal>;
  onAbort: () => void;
}

export class SignalWatch {
  /** Attempts in flight, by a signal that cancels them (read by tests: empty once all finished). */
  readonly inFlight = new Map<AbortSignal, Watched>();

  /** Cancels `attempt` with `reason()` when `signal` aborts (at once if it already has), until release(). */
  watch(signal: AbortSignal, attempt: AttemptSignal, reason: () => unknown): void {
    if (signal.aborted) {
      attempt.abort(reason());
      return;
    }
    let entry = this.inFlight.get(signal);
    if (!entry) {
      const attempts = new Set<AttemptSignal>();
      const onAbort = (): void => {
        for (const a of attempts) a.abort(reason());
      };
      entry = { attempts, onAbort };
      this.inFlight.set(signal, entry);
      signal.addEventListener('abort', onAbort, { once: true });
    }
    entry.attempts.add(attempt);
  }

  release(signal: AbortSignal, attempt: AttemptSignal): void {
    const entry = this.inFlight.get(signal);
    if (!entry) return;
    entry.attempts.delete(attempt);
    if (entry.attempts.size === 0) {
      signal.removeEventListener('abort', entry.onAbort);
      this.inFlight.delete(signal);
    }
  }
}
