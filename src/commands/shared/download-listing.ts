/** `download` over a listing (filters or --all): its media fetched by one pool fed by the listing's pages as they arrive. */
import type { Context } from '../../context.js';
import type { ApiClient } from '../../api/client.js';
import type { BulkSummary } from '../../media/bulk.js';
import { type DownloadPlan, type PlanTarget, emptyPlan, streamListingJobs } from '../../media/plan.js';
import type { QueryFilterParams } from './query-filters.js';
import { type RunJobsOptions, runMediaJobs } from './media-run.js';

/** What `download` asks of a listing: its filters, a cap, and how to run the jobs. */
export interface ListingRun extends RunJobsOptions {
  filters: QueryFilterParams;
  max?: number;
}

/**
 * A listing's media downloaded as the pages arrive, by one pool for the whole run: the first
 * files start while the next page is asked for, a page's last files never hold up the next
 * page's first, and there is one progress meter and one summary. Memory holds about two pages
 * of jobs (and the summary), never the whole listing first.
 */
export async function downloadListing(
  ctx: Context,
  api: ApiClient,
  options: ListingRun,
  target: PlanTarget,
): Promise<{ plan: DownloadPlan; summary: BulkSummary }> {
  const plan = emptyPlan();
  const pages = streamListingJobs(api, options.filters, target, options.max !== undefined ? { max: options.max } : {}, plan);
  const summary = await runMediaJobs(ctx, api, pages, { concurrency: options.concurrency, skipExisting: options.skipExisting, failFast: options.failFast });
  return { plan, summary };
}
