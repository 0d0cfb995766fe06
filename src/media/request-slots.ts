/**
 * The bulk pool's request slots: at most `size` media requests at once, each held until its body is on
 * disk. The pool runs more downloads than slots, so the next request goes out as a body ends, not after
 * that file's verify and rename and the next file's checks.
 */
import { InterruptedError } from '../errors.js';

export interface RequestSlot {
  /** Waits for a free slot, first come first served; InterruptedError once `signal` aborts. */
  take(signal?: AbortSignal): Promise<void>;
  /** Gives the slot back; harmless when none is held. */
  release(): void;
}

export class RequestSlots {
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
