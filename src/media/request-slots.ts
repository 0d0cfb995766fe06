/**
 * The bulk pool's request slots: at most `size` media requests at once (--concurrency), each
 * slot held from a file's request until its body is on disk. The pool runs more downloads than
 * slots, so the next files' folder checks, locks and `.part`s are ready while the slots are
 * busy, and a slot's next request goes out as soon as a body ends, not after that file's
 * verify and rename and the next file's checks (over a slow link a slot would otherwise sit
 * idle while they run, one after the other).
 */
import { InterruptedError } from '../errors.js';

/** One download's hold on a slot. */
export interface RequestSlot {
  /** Waits for a free slot, first come first served (none when this one holds one); InterruptedError once `signal` aborts. */
  take(signal?: AbortSignal): Promise<void>;
  /** Gives the slot back; harmless when none is held. */
  release(): void;
}

export class RequestSlots {
  /** Those waiting for a slot, each woken with it. */
  private readonly waiting: Array<() => void> = [];

  constructor(private free: number) {}

  slot(): RequestSlot {
    let held = false;
    return {
      take: async (signal) => {
        if (held) return;
        if (signal?.aborted) throw new InterruptedError();
        if (this.free > 0) this.free--;
        else
          await new Promise<void>((resolve, reject) => {
            const granted = (): void => {
              signal?.removeEventListener('abort', onAbort);
              resolve();
            };
            const onAbort = (): void => {
              this.waiting.splice(this.waiting.indexOf(granted), 1);
              reject(new InterruptedError());
            };
            this.waiting.push(granted);
            signal?.addEventListener('abort', onAbort, { once: true });
          });
        held = true;
      },
      release: () => {
        if (!held) return;
        held = false;
        const next = this.waiting.shift();
        if (next) next();
        else this.free++;
      },
    };
  }
}
