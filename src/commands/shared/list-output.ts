/**
 * Runs a paged list endpoint for `query` and `ids`: one page, or (--all/--max) every page
 * through the paging iterator, streamed to the list writer.
 */
import type { Context } from '../../context.js';
import type { ListResponse, Pagination } from '../../catalogue/types.js';
import { type PageCursor, nextCursor, paginatePages } from '../../api/paging.js';
import { createListWriter } from '../../output/list.js';
import { nextPageCommand } from '../../output/next-page.js';
import type { PagingChoice } from './paging-options.js';

export async function outputList(ctx: Context, fetchPage: (cursor: PageCursor & { limit: number }) => Promise<ListResponse>, paging: PagingChoice): Promise<void> {
  const writer = createListWriter(ctx);
  const direction = paging.before !== undefined ? 'before' : 'after';

  if (!paging.follow) {
    const cursor = paging.before !== undefined ? { before: paging.before } : paging.after !== undefined ? { after: paging.after } : {};
    const page = await fetchPage({ ...cursor, limit: paging.limit });
    await writer.addPage(page.exercises);
    const next = nextCursor(page, direction);
    const firstPage = paging.after === undefined && paging.before === undefined;
    const more = page.exercises.length >= paging.limit && typeof next === 'string' && !(firstPage && page.pagination.total <= page.exercises.length);
    await writer.finish(page.pagination, more ? { nextCommand: nextPageCommand(ctx.argv, next, direction) } : {});
    return;
  }

  let last: Pagination = { total: 0 };
  const pages = paginatePages(
    async (cursor) => {
      const page = await fetchPage({ ...cursor, limit: paging.limit });
      last = page.pagination;
      return page;
    },
    { limit: paging.limit, after: paging.after, before: paging.before, max: paging.max },
  );
  for await (const items of pages) await writer.addPage(items);
  await writer.finish({ total: last.total }, { complete: true });
}
