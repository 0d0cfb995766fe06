/** `exercises ids`: GET /exercise/exerciseIds, one page or every page. */
import type { Command } from 'commander';
import type { Context } from '../context.js';
import type { RegisterCommand } from './index.js';
import { addExamples } from './shared/help.js';
import { addPagingOptions, pagingFromOptions } from './shared/paging-options.js';

export async function run(opts: Record<string, unknown>, ctx: Context): Promise<void> {
  const paging = pagingFromOptions(opts);
  const { apiFromContext, resolvedLang } = await import('../api/from-context.js');
  const { outputList } = await import('./shared/list-output.js');
  const lang = await resolvedLang(ctx);
  const api = await apiFromContext(ctx);
  await outputList(ctx, (cursor) => api.exerciseIds({ ...cursor, ...(lang ? { lang } : {}) }), paging);
}

export const register: RegisterCommand = (program: Command, context: () => Context) => {
  const cmd = program.command('ids').description('list exercise ids and names (GET /exercise/exerciseIds)');
  addPagingOptions(cmd);
  addExamples(
    cmd,
    ['exercises ids', 'exercises ids --limit 25 --after <cursor>', 'exercises ids --all'],
    [
      'exercises ids --all --format jsonl | jq -r .id',
      'exercises ids --all | wc -l',
      'exercises ids --max 50 | exercises show - --format jsonl',
      'exercises ids --all --format jsonl | jq -r .id | exercises download -',
    ],
  );
  cmd.action(async (opts: Record<string, unknown>) => run(opts, context()));
};
