/**
 * `exercises show <id-or-name...>`: GET /exercise/{exerciseId} for each, with bounded
 * concurrency and output in input order; `-` reads ids from stdin. Missing ones are
 * reported as they come and make the command exit 4 after printing the others.
 */
import type { Context } from '../context.js';
import type { RecordOutcome } from '../api/fetch-records.js';
import { SHOW_CONCURRENCY } from '../config/defaults.js';
import { langInForce } from '../config/settings.js';
import { NotFoundError, UsageError } from '../errors.js';
import type { RegisterCommand } from './index.js';
import { addExamples } from './shared/help.js';
import { assertNoEmptyIds } from './shared/requested-ids.js';
import { oneLine, someOf } from '../util/text.js';
import { NOT_FOUND_HINT } from '../api/client.js';

export interface ShowOptions {
  /** Ids or names in the order given; `-` stands for the ids read from stdin. */
  ids: string[];
}

export function showOptions(args: readonly string[]): ShowOptions {
  if (args.length === 0) throw new UsageError('Give at least one exercise id or name, or - to read them from stdin.');
  assertNoEmptyIds(args);
  return { ids: [...args] };
}

export async function run(options: ShowOptions, ctx: Context): Promise<void> {
  const args = options.ids;
  const { createRecordWriter } = await import('../output/record.js');
  const { fetchRecords } = await import('../api/fetch-records.js');
  const { requestedIds } = await import('./shared/requested-ids.js');
  const many = args.length > 1 || args.includes('-');
  // First: it checks `--json <fields>` (a usage error listing the valid ones) before any request.
  const writer = createRecordWriter(ctx, many);
  const lang = langInForce(ctx.settings());
  const api = await ctx.api();

  const missing: string[] = [];
  let total = 0;
  const emit = async (outcome: RecordOutcome): Promise<void> => {
    if ('record' in outcome) return writer.add(outcome.record);
    if (!(outcome.error instanceof NotFoundError)) throw outcome.error; // auth, network…: stop now
    missing.push(outcome.id);
    // With several ids, say which as it happens (and what is near, known locally); the summary error comes at the end.
    if (many) {
      const { nearIds, orList } = await import('./shared/near-ids.js');
      const near = await nearIds(ctx, outcome.id);
      ctx.io.stderr.write(`Not found: ${oneLine(outcome.id)}${near.length > 0 ? ` (did you mean ${orList(near)}?)` : ''}\n`); // a failure: shown even with --quiet
    }
  };

  const ids = requestedIds(args, ctx.io, ctx.globals.quiet);
  const { startSpinner } = await import('../output/spinner.js');
  const spinner = startSpinner(ctx, 'Fetching…');
  try {
    for await (const outcome of fetchRecords(api, ids, { ...(lang ? { lang } : {}), concurrency: SHOW_CONCURRENCY })) {
      total++;
      spinner.clear();
      await emit(outcome);
      if (many) spinner.update(`Fetching… ${total} done`);
    }
  } finally {
    spinner.stop();
    // Even when an error stops the run, what was printed stays well-formed (a JSON array is closed).
    await writer.finish();
  }

  if (total === 0) throw (await import('./shared/requested-ids.js')).noIdsOnStdin();
  if (missing.length > 0) {
    const { nearIdsHint } = await import('./shared/near-ids.js');
    throw new NotFoundError(
      // With several ids each missing one was named as it came: the summary does not name them again.
      total === 1 ? `No exercise has the id or name "${missing[0]}".` : `${missing.length} of ${total} exercises ${missing.length === 1 ? 'was' : 'were'} not found (named above).`,
      { hint: (total === 1 ? await nearIdsHint(ctx, missing[0]!) : undefined) ?? NOT_FOUND_HINT, details: { missing } },
    );
  }
}

export const register: RegisterCommand<ShowOptions> = (program, context, runF = run) => {
  const cmd = program
    .command('show')
    .description('show exercises by id or name; - reads ids from stdin')
    .argument('<id-or-name...>', 'exercise ids or names (quote names with spaces); - for stdin');
  addExamples(
    cmd,
    ['exercises show Barbell_Bench_Press', 'exercises show "Barbell Back Squat"', 'exercises show Barbell_Bench_Press Conventional_Deadlift --lang de-DE'],
    [
      'exercises show Barbell_Bench_Press --format json | jq .instructions',
      'exercises ids --all | exercises show - --format jsonl > catalogue.jsonl',
      "exercises query --muscle chest --format jsonl | exercises show - --format csv > chest.csv",
      'printf "%s\\n" Barbell_Back_Squat Conventional_Deadlift | exercises show - --format tsv',
    ],
  );
  cmd.action(async (args: string[]) => {
    const ctx = context();
    await runF(showOptions(args), ctx);
  });
};
