/** The paging flags of `query` and `ids` (--limit --after --before --all --max) and what they mean together. */
import type { Command } from 'commander';
import { LIMIT_DEFAULT, LIMIT_MAX, LIMIT_MIN } from '../../defaults.js';
import { UsageError } from '../../errors.js';
import { intArg } from './flags.js';

export interface PagingChoice {
  /** Page size to request. */
  limit: number;
  after?: string;
  before?: string;
  /** Follow cursors (--all, or --max given). */
  follow: boolean;
  max?: number;
}

export function addPagingOptions(cmd: Command): Command {
  return cmd
    .option(
      '--limit <n>',
      `results per request, ${LIMIT_MIN}-${LIMIT_MAX} (default ${LIMIT_DEFAULT}; ${LIMIT_MAX} with --all)`,
      intArg('--limit', LIMIT_MIN, LIMIT_MAX),
    )
    .option('--after <cursor>', 'start after this cursor or exercise id')
    .option('--before <cursor>', 'the page before this cursor or exercise id')
    .option('--all', 'follow cursors to the end of the list')
    .option('--max <n>', 'stop after this many results (follows cursors as needed)', intArg('--max', 1));
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
