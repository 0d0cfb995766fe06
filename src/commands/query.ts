/** `exercises query`: GET /exercise/query with every filter of spec §4.1. */
import type { Command } from 'commander';
import type { Context } from '../context.js';
import type { RegisterCommand } from './index.js';
import { addExamples } from './shared/help.js';
import { addPagingOptions, pagingFromOptions } from './shared/paging-options.js';
import { addQueryFilterOptions, queryParamsFromOptions } from './shared/query-filters.js';

export async function run(opts: Record<string, unknown>, ctx: Context): Promise<void> {
  // Everything the user typed is checked before the first request.
  const filters = queryParamsFromOptions(opts);
  const paging = pagingFromOptions(opts);
  const { apiFromContext, resolvedLang } = await import('../api/from-context.js');
  const { outputList } = await import('./shared/list-output.js');
  const lang = await resolvedLang(ctx);
  const api = await apiFromContext(ctx);
  await outputList(ctx, (cursor) => api.query({ ...filters, ...cursor, ...(lang ? { lang } : {}) }), paging);
}

export const register: RegisterCommand = (program: Command, context: () => Context) => {
  const cmd = program
    .command('query')
    .description('search the catalogue with filters (GET /exercise/query)');
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
  cmd.action(async (opts: Record<string, unknown>) => run(opts, context()));
};
