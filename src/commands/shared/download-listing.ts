/** `download` over a listing (filters or --all): its media fetched page by page as the pages arrive. */
import type { Context } from '../../context.js';
import type { ApiClient } from '../../api/client.js';
import type { BulkSummary } from '../../media/bulk.js';
import { type DownloadPlan, type PlanTarget, emptyPlan, streamListingJobs } from '../../media/plan.js';
import type { QueryFilterParams } from './query-filters.js';
import { type RunJobsOptions, runMediaJobs } from './media-run.js';

/** What `download` asks of a listing: its filters, a cap, and how to run the jobs of each page. */
export interface ListingRun extends RunJobsOptions {
  filters: QueryFilterParams;
  max?: number;
}

/**
 * A listing's media downloaded page by page as the pages arrive: the next page is fetched while
 * this one's files download, so memory holds a page of jobs (and the summary), never the whole
 * listing first, and the first files land at once.
 */
export async function downloadListing(
  ctx: Context,
  api: ApiClient,
  options: ListingRun,
  target: PlanTarget,
): Promise<{ plan: DownloadPlan; summary: BulkSummary }> {
  const plan = emptyPlan();
  const pages = streamListingJobs(api, options.filters, target, options.max !== undefined ? { max: options.max } : {}, plan)[Symbol.asyncIterator]();
  const summary: BulkSummary = { total: 0, fetched: 0, skipped: 0, failed: 0, bytes: 0, seconds: 0, outcomes: [], stoppedEarly: false };
  let pending = pages.next();
  try {
    for (;;) {
      const { value: jobs, done } = await pending;
      if (done) break;
      pending = pages.next();
      pending.catch(() => {}); // awaited on the next turn; an early stop must not leave it unhandled
      const part = await runMediaJobs(ctx, api, jobs, { concurrency: options.concurrency, skipExisting: options.skipExisting, failFast: options.failFast });
      // Added in place: copying the outcomes on every page would cost the square of the listing.
      summary.total += part.total;
      summary.fetched += part.fetched;
      summary.skipped += part.skipped;
      summary.failed += part.failed;
      summary.bytes += part.bytes;
      summary.seconds += part.seconds;
      for (const o of part.outcomes) summary.outcomes.push(o);
      if (part.stoppedEarly) {
        summary.stoppedEarly = true;
        break;
      }
    }
  } finally {
    void pages.return?.(undefined)?.catch(() => {});
  }
  return { plan, summary };
}
