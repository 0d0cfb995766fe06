/** `exercises query`: GET /exercise/query with every filter of spec §4.1. */
import type { Context } from '../context.js';
import { langInForce } from '../config/settings.js';
import type { RegisterCommand } from './index.js';
import { addExamples } from './shared/help.js';
import { type PagingChoice, addPagingOptions, pagingFromOptions } from './shared/paging-options.js';
import { type QueryFilterParams, addQueryFilterOptions, queryParamsFromOptions } from './shared/query-filters.js';

export interface QueryOptions {
  filters: QueryFilterParams;
  paging: PagingChoice;
}

export async function run(options: QueryOptions, ctx: Context): Promise<void> {
  const { outputList } = await import('./shared/list-output.js');
  const { requestedFields } = await import('../output/fields.js');
  requestedFields(ctx.globals, 'summary'); // an unknown --json field is a usage error before the key is even needed
  const lang = langInForce(ctx.settings());
  const api = await ctx.api();
  await outputList(ctx, (cursor) => api.query({ ...options.filters, ...cursor, ...(lang ? { lang } : {}) }), options.paging);
}

export const register: RegisterCommand<QueryOptions> = (program, context, runF = run) => {
  const cmd = program
    .command('query')
    .description('search the catalogue with filters');
  addQueryFilterOptions(cmd);
  addPagingOptions(cmd);
  addExamples(
    cmd,
    [
      'exercises query --muscle chest',
      'exercises query --name "bench press" --level beginner',
      'exercises query --category strength,plyometrics --equipment dumbbell --equipment "body only"',
      'exercises query --muscle "lower back" --all',
      'exercises query --name kniebeuge --searchlang de-DE --lang de-DE',
    ],
    [
      'exercises query --muscle chest --all --format jsonl | jq -r .id',
      'exercises query --equipment kettlebells --all | cut -f1,2',
      'exercises query --level expert --all --format csv > expert.csv',
      'exercises query --muscle biceps --max 5 --format jsonl | exercises show - --format json',
    ],
  );
  cmd.action(async (opts: Record<string, unknown>) => {
    const ctx = context();
    // Everything the user typed is checked before the first request.
    await runF({ filters: queryParamsFromOptions(opts), paging: pagingFromOptions(opts) }, ctx);
  });
};
