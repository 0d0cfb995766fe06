/**
 * The queue between a bulk run's job listing and its pool: jobs arrive in batches (a listing's pages),
 * workers take one at a time, and the feeder waits while enough are queued (about two pages in memory).
 */
import type { MediaJob } from './jobs.js';

export interface QueuedJob {
  job: MediaJob;
  index: number;
}

export class JobQueue {
  private waiting: MediaJob[] = [];
  private head = 0;
  /** Jobs queued so far: the run's total. */
  total = 0;
  private ended = false;
  private workersWaiting: Array<() => void> = [];
  private feederWaiting: (() => void) | undefined;

  get queued(): number {
    return this.waiting.length - this.head;
  }

  push(jobs: readonly MediaJob[]): void {
    if (this.ended) return;
    for (const job of jobs) this.waiting.push(job);
    this.total += jobs.length;
    this.wakeWorkers();
  }

  /** No more jobs will come: waiting workers get none. */
  end(): void {
    this.ended = true;
    this.wakeWorkers();
    this.wakeFeeder();
  }

  /** The run stops early: the jobs not taken are dropped. */
  close(): void {
    this.waiting = [];
    this.head = 0;
    this.end();
  }

  /** The next job, waiting while more may come; undefined once none will. */
  async take(): Promise<QueuedJob | undefined> {
    for (;;) {
      if (this.head < this.waiting.length) {
        const job = this.waiting[this.head]!;
        const index = this.total - this.queued;
        this.head++;
        // Compacted now and then, so taken jobs are not kept referenced.
        if (this.head >= 1024 && this.head * 2 >= this.waiting.length) {
          this.waiting = this.waiting.slice(this.head);
          this.head = 0;
        }
        this.wakeFeeder();
        return { job, index };
      }
      if (this.ended) return undefined;
      await new Promise<void>((resolve) => this.workersWaiting.push(resolve));
    }
  }

  /** Resolves once at most `count` jobs are queued (or the queue has ended). */
  async drainedTo(count: number): Promise<void> {
    while (!this.ended && this.queued > count) await new Promise<void>((resolve) => (this.feederWaiting = resolve));
  }

  private wakeWorkers(): void {
    const waiting = this.workersWaiting;
    this.workersWaiting = [];
    for (const wake of waiting) wake();
  }

  private wakeFeeder(): void {
    const wake = this.feederWaiting;
    this.feederWaiting = undefined;
    wake?.();
  }
}
