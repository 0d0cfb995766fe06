/**
 * `exercises show <id-or-name...>`: GET /exercise/{exerciseId} for each, with bounded
 * concurrency and output in input order; `-` reads ids from stdin. Missing ones are
 * reported as they come and make the command exit 4 after printing the others.
 */
import type { Context } from '../context.js';
import { type RecordOutcome, fetchRecords } from '../api/fetch-records.js';
import { SHOW_CONCURRENCY } from '../defaults.js';
import { langInForce } from '../config/settings.js';
import { NotFoundError, UsageError } from '../errors.js';
import type { RegisterCommand } from './shared/register.js';
import type { ExerciseRecord } from '../catalogue/types.js';
import type { ImageProtocol } from '../output/images/protocol.js';
import { imagesFlag, sizeFlag, splitImagesValue } from './shared/images-flag.js';
import type { CellBox } from '../output/images/fit.js';
import { addExamples } from './shared/help.js';
import { assertNoEmptyIds, requestedIds, noIdsOnStdin } from './shared/requested-ids.js';
import { oneLine } from '../util/text.js';
import { NOT_FOUND_HINT } from '../api/client.js';
import { pickMissingId } from '../prompt/exercise-picker.js';
import { createRecordWriter } from '../output/record.js';
import { nearIds, orList, nearIdsHint } from './shared/near-ids.js';
import { startSpinner } from '../output/spinner.js';
import { viewImages } from './shared/view-images.js';
import { outputDir } from './shared/media-run.js';

export interface ShowOptions {
  /** Ids or names in the order given; `-` stands for the ids read from stdin. None: the picker chooses one (at a terminal). */
  ids: string[];
  /** `--images[=protocol]`: draw each record's premium images after it (shared/view-images.ts). */
  images?: { protocol?: ImageProtocol; size?: CellBox };
  /** `--dir`: where images are looked for and kept, as <dir>/<id>/<name>.png (the cache directory's pictures folder without). */
  dir?: string;
}

export function showOptions(
  given: readonly string[],
  flags: { images?: unknown; dir?: string; size?: string } = {},
  argv: readonly string[] = [],
): ShowOptions {
  const { flag, positional } = splitImagesValue(flags.images, '--images', argv);
  const args = positional === undefined ? given : [positional, ...given];
  assertNoEmptyIds(args);
  const drawn = imagesFlag(flag, '--images');
  const size = sizeFlag(flags.size, '--images', drawn !== undefined);
  const images = drawn && { ...drawn, ...(size ? { size } : {}) };
  if (flags.dir !== undefined && images === undefined) throw new UsageError('--dir goes with --images: it is where the images are looked for and kept.');
  return { ids: [...args], ...(images ? { images } : {}), ...(flags.dir !== undefined ? { dir: flags.dir } : {}) };
}

/** With no id: the one picked at a terminal (src/prompt), else today's usage error. */
async function idsOrPick(options: ShowOptions, ctx: Context): Promise<string[]> {
  if (options.ids.length > 0) return options.ids;
  return [await pickMissingId(ctx, 'show', 'Give at least one exercise id or name, or - to read them from stdin.')];
}

export async function run(options: ShowOptions, ctx: Context): Promise<void> {
  const args = await idsOrPick(options, ctx);
  const many = args.length > 1 || args.includes('-');
  // First: it checks `--json <fields>` (a usage error listing the valid ones) before any request.
  const writer = createRecordWriter(ctx, many);
  const lang = langInForce(ctx.settings());
  const api = await ctx.api();

  const missing: string[] = [];
  /** With --images, the records shown, to draw their images after them. */
  const shown: ExerciseRecord[] = [];
  let total = 0;
  const emit = async (outcome: RecordOutcome): Promise<void> => {
    if ('record' in outcome) {
      if (options.images) shown.push(outcome.record);
      return writer.add(outcome.record);
    }
    if (!(outcome.error instanceof NotFoundError)) throw outcome.error; // auth, network…: stop now
    missing.push(outcome.id);
    // With several ids, say which as it happens (and what is near, known locally); the summary error comes at the end.
    if (many) {
      const near = await nearIds(ctx, outcome.id);
      ctx.io.stderr.write(`Not found: ${oneLine(outcome.id)}${near.length > 0 ? ` (did you mean ${orList(near)}?)` : ''}\n`); // a failure: shown even with --quiet
    }
  };

  const ids = requestedIds(args, ctx.io, ctx.globals.quiet);
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

  if (total === 0) throw noIdsOnStdin();
  if (options.images) {
    const dir = options.dir !== undefined ? { dir: outputDir(options.dir) } : {};
    // One record: its pictures share the screen with it; after several, each is fitted alone.
    for (const record of shown) await viewImages(ctx, api, record, { ...options.images, ...dir, besideRecord: total === 1 });
  }
  if (missing.length > 0) {
    throw new NotFoundError(
      // With several ids each missing one was named as it came: the summary does not name them again.
      total === 1
        ? `No exercise has the id or name "${missing[0]}".`
        : `${missing.length} of ${total} exercises ${missing.length === 1 ? 'was' : 'were'} not found (named above).`,
      { hint: (total === 1 ? await nearIdsHint(ctx, missing[0]!) : undefined) ?? NOT_FOUND_HINT, details: { missing } },
    );
  }
}

export const register: RegisterCommand<ShowOptions> = (program, context, runF = run) => {
  const cmd = program
    .command('show')
    .description('show exercises by id or name; - reads ids from stdin')
    .argument('[id-or-name...]', 'exercise ids or names (quote names with spaces); - for stdin; none at a terminal: pick one')
    .option('--images [protocol]', 'draw the premium images at the terminal after the record: kitty, iterm or blocks (default: found from the terminal)')
    .option('--dir <dir>', 'with --images: where images are looked for and kept, as <dir>/<id>/<name>.png (default: a folder of the cache directory)')
    .option('--size <WxH>', 'with --images: the columns and lines each picture may take (default: fitted to the terminal, beside the record)');
  addExamples(
    cmd,
    [
      'exercises show Barbell_Bench_Press',
      'exercises show "Barbell Back Squat"',
      'exercises show Barbell_Bench_Press Conventional_Deadlift --lang de-DE',
      'exercises show',
      'exercises show Plank --images',
    ],
    [
      'exercises show Barbell_Bench_Press --format json | jq .instructions',
      'exercises ids --all | exercises show - --format jsonl > catalogue.jsonl',
      'exercises query --muscle chest --format jsonl | exercises show - --format csv > chest.csv',
      'printf "%s\\n" Barbell_Back_Squat Conventional_Deadlift | exercises show - --format tsv',
    ],
  );
  cmd.action(async (args: string[], flags: { images?: unknown; dir?: string; size?: string }) => {
    const ctx = context();
    await runF(showOptions(args, flags, ctx.argv), ctx);
  });
};
