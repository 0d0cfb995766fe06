/** The paged lists of `query` and `ids`: their paging flags and the run of a list endpoint, one page or every page, streamed to the writer. */
import type { Command } from 'commander';
import { LIMIT_DEFAULT, LIMIT_MAX, LIMIT_MIN } from '../../defaults.js';
import { PartialFailureError, UsageError } from '../../errors.js';
import { intArg } from './flags.js';
import { type Context, outputFormat } from '../../context.js';
import type { ExerciseSummary, ListResponse } from '../../catalogue/types.js';
import { type ListingProblem, type PageCursor, nextCursor, paginatePages } from '../../api/paging.js';
import { createListWriter } from '../../output/list.js';
import { pageFooter } from '../../output/next-page.js';
import { startSpinner } from '../../output/notice.js';
import { plural } from '../../util/text.js';

export interface PagingChoice {
  limit: number;
  after?: string;
  before?: string;
  /** --all, or --max given. */
  follow: boolean;
  max?: number;
}

export function addPagingOptions(cmd: Command): Command {
  return cmd
    .option(
      '--limit <n>',
      `results a request, ${LIMIT_MIN}-${LIMIT_MAX} (default ${LIMIT_DEFAULT}, --all ${LIMIT_MAX})`,
      intArg('--limit', LIMIT_MIN, LIMIT_MAX),
    )
    .option('--after <cursor>', 'start after this cursor or exercise id')
    .option('--before <cursor>', 'the page before this cursor or exercise id')
    .option('--all', 'follow cursors to the end of the list')
    .option('--max <n>', 'stop after this many results', intArg('--max', 1));
}

export function pagingFromOptions(opts: Record<string, unknown>): PagingChoice {
  const after = typeof opts.after === 'string' ? opts.after : undefined;
  const before = typeof opts.before === 'string' ? opts.before : undefined;
  if (after !== undefined && before !== undefined) {
    throw new UsageError('--after and --before cannot be used together.', { hint: 'Page forwards with --after or backwards with --before.' });
  }
  if (after === '' || before === '') throw new UsageError(`--${after === '' ? 'after' : 'before'} needs a cursor or an exercise id.`);
  const max = typeof opts.max === 'number' ? opts.max : undefined;
  const follow = opts.all === true || max !== undefined;
  let limit = typeof opts.limit === 'number' ? opts.limit : follow ? LIMIT_MAX : LIMIT_DEFAULT;
  // Never ask for more than will be shown: the quota counts requests, the wire counts bytes.
  if (max !== undefined && max < limit) limit = max;
  return { limit, after, before, follow, max };
}

export async function outputList(
  ctx: Context,
  fetchPage: (cursor: PageCursor & { limit: number }) => Promise<ListResponse>,
  paging: PagingChoice,
  options: { emptyHint?: string } = {},
): Promise<void> {
  const writer = createListWriter(ctx, { pager: ctx.globals.pager, ...options });
  const direction = paging.before !== undefined ? 'before' : 'after';
  const fromStart = paging.after === undefined && paging.before === undefined;

  // A spinner on a terminal's stderr while a wait lasts.
  const spinner = startSpinner(ctx, 'Fetching exercises…');
  let lastPage: ListResponse | undefined;
  let lastItems: readonly ExerciseSummary[] = [];
  let shown = 0;
  let problem: ListingProblem | undefined;
  // Without --all or --max, one page: a listing ending short of its total is no failure.
  const max = paging.follow ? paging.max : paging.limit;
  const pages = paginatePages(
    async (cursor) => {
      lastPage = await fetchPage({ ...cursor, limit: paging.limit });
      return lastPage;
    },
    { limit: paging.limit, after: paging.after, before: paging.before, max, ...(paging.follow ? { onIncomplete: (p: ListingProblem) => (problem = p) } : {}) },
  );
  let pageCount = 0;
  try {
    for await (const items of pages) {
      shown += items.length;
      pageCount++;
      lastItems = items;
      spinner.clear();
      await writer.addPage(items);
      spinner.update(
        `Fetching exercises… ${plural(pageCount, 'page')}, ${plural(shown, 'row')}${typeof lastPage?.pagination.total === 'number' ? ` of ${lastPage.pagination.total}` : ''}`,
      );
    }
  } catch (err) {
    spinner.stop();
    // A stop part-way: what was fetched is shown before the error (a table holds its rows until the end).
    if (shown > 0 && outputFormat(ctx) === 'table') {
      const total = lastPage?.pagination.total;
      await writer.finish({ total: total ?? shown }, { start: 1, ...(typeof total === 'number' ? { total } : {}) });
    }
    throw err;
  }
  spinner.stop();
  const total = lastPage?.pagination.total;
  // Stopped at --max before the end: the footer offers what comes next.
  let next: string | undefined;
  if (max !== undefined && shown >= max && lastPage && !(fromStart && typeof total === 'number' && total <= shown)) {
    const cut = lastItems.length < lastPage.exercises.length;
    const edge = direction === 'after' ? lastItems[lastItems.length - 1] : lastItems[0];
    const server = cut ? undefined : nextCursor(lastPage, direction);
    next = typeof server === 'string' ? server : cut ? edge?.id : undefined;
  }
  await writer.finish(
    // One page keeps its pagination as the service sent it (its cursors, for scripts).
    paging.follow || !lastPage ? { total: total ?? 0 } : lastPage.pagination,
    pageFooter({
      argv: ctx.argv,
      direction,
      fromStart,
      shown,
      ...(typeof total === 'number' ? { total } : {}),
      ...(next !== undefined ? { next, ...(paging.follow ? { max: paging.max } : {}) } : {}),
    }),
  );
  if (problem) throw new PartialFailureError(`The listing stopped early: ${problem.message}. The ${shown} rows before that were written.`);
}
