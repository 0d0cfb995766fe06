/** `exercises ids`: GET /exercise/exerciseIds, one page or every page. */
import type { Context } from '../context.js';
import { langInForce } from '../config/settings.js';
import type { RegisterCommand } from './shared/register.js';
import { addExamples } from './shared/help.js';
import { type PagingChoice, addPagingOptions, outputList, pagingFromOptions } from './shared/list-output.js';
import { requestedFields } from '../output/fields.js';

export interface IdsOptions {
  paging: PagingChoice;
}

export async function run(options: IdsOptions, ctx: Context): Promise<void> {
  requestedFields(ctx.globals, 'summary'); // an unknown --json field is a usage error before the key is even needed
  const lang = langInForce(ctx.settings());
  const api = await ctx.api();
  await outputList(ctx, (cursor) => api.exerciseIds({ ...cursor, ...(lang ? { lang } : {}) }), options.paging);
}

export const register: RegisterCommand<IdsOptions> = (program, context, runF = run) => {
  const cmd = program.command('ids').description('list exercise ids and names, a page at a time or all of them');
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
  cmd.action((opts: Record<string, unknown>) => runF({ paging: pagingFromOptions(opts) }, context()));
};
