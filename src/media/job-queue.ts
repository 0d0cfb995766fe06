/**
 * The queue between what lists the jobs of a bulk run and the pool that downloads them: the
 * jobs arrive in batches (a listing page's, as the page arrives) and the pool's workers take
 * them one at a time, waiting when the queue is empty but more may come. The feeder waits in
 * its turn while enough jobs are queued, so memory holds about two pages of jobs, never the
 * whole listing, while the pool never waits on a page it could have asked for earlier.
 */
import type { MediaJob } from './jobs.js';

/** A job and its place in the run (the order of the summary's files). */
export interface QueuedJob {
  job: MediaJob;
  index: number;
}

export class JobQueue {
  /** Jobs queued and not taken yet; `head` is the first of them. */
  private waiting: MediaJob[] = [];
  private head = 0;
  /** Jobs queued so far, taken or not: the run's total. */
  total = 0;
  private ended = false;
  private workersWaiting: Array<() => void> = [];
  private feederWaiting: (() => void) | undefined;

  /** Jobs not taken yet. */
  get queued(): number {
    return this.waiting.length - this.head;
  }

  push(jobs: readonly MediaJob[]): void {
    if (this.ended) return;
    for (const job of jobs) this.waiting.push(job);
    this.total += jobs.length;
    this.wakeWorkers();
  }

  /** No more jobs will come (the listing ended, or the run stops): waiting workers get none. */
  end(): void {
    this.ended = true;
    this.wakeWorkers();
    this.wakeFeeder();
  }

  /** The run stops early: the jobs not taken are dropped, and nobody waits any more. */
  close(): void {
    this.waiting = [];
    this.head = 0;
    this.end();
  }

  /** The next job, waiting for one while the feeder may still bring more; undefined once none will come. */
  async take(): Promise<QueuedJob | undefined> {
    for (;;) {
      if (this.head < this.waiting.length) {
        const job = this.waiting[this.head]!;
        const index = this.total - this.queued;
        this.head++;
        // Compacted now and then, so the taken jobs do not stay referenced here.
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
