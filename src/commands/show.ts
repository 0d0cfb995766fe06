/**
 * `exercises show <id-or-name...>`: each record, fetched with bounded concurrency and printed in input
 * order. A text is resolved locally first (id, name), a missing one tried as part of a name (or with
 * `--search` by one listing request); missing ones are reported and make the exit 4.
 */
import type { Context } from '../context.js';
import { type RecordOutcome, fetchRecords } from '../api/fetch-records.js';
import { SHOW_CONCURRENCY } from '../defaults.js';
import { langInForce } from '../config/settings.js';
import { NotFoundError, UsageError } from '../errors.js';
import type { RegisterCommand } from './shared/register.js';
import type { ExerciseRecord } from '../catalogue/types.js';
import type { ImageProtocol } from '../output/images/protocol.js';
import { drawFlags, splitImagesValue } from './shared/flags.js';
import type { CellBox } from '../output/images/fit.js';
import { addExamples } from './shared/help.js';
import {
  assertNoEmptyIds,
  requestedIds,
  noIdsOnStdin,
  oneOf,
  nearIds,
  nearIdsHint,
  nameQuery,
  recordOf,
  recordsAreLocal,
  resolveBySearch,
  resolveGiven,
  resolveLocally,
  tellResolution,
} from './shared/requested-ids.js';
import { oneLine } from '../util/text.js';
import { NOT_FOUND_HINT, type ApiClient } from '../api/client.js';
import { pickMissingId } from '../prompt/pick.js';
import { createRecordWriter } from '../output/record.js';
import { orList } from '../catalogue/suggest.js';
import { startSpinner, writeNotice } from '../output/notice.js';
import { viewImages } from './shared/view-images.js';
import { outputDir } from './shared/media-run.js';
import { showOnWeb } from './shared/web-view.js';

export interface ShowOptions {
  /** Ids or names in order (`-`: stdin). None: the picker chooses one at a terminal. */
  ids: string[];
  /** `--images[=protocol]`: draw each record's premium images after it. */
  images?: { protocol?: ImageProtocol; size?: CellBox };
  /** `--dir`: where images are looked for and kept (default: the cache's pictures folder). */
  dir?: string;
  /** `--search`: a text with no id or name is looked up by part of its name (one listing request). */
  search?: boolean;
  /** `--web [--videos]`: the records on a page in the browser, instead of printed. */
  web?: { videos: boolean };
}

interface ShowFlags {
  images?: unknown;
  dir?: string;
  size?: string;
  search?: boolean;
  web?: boolean;
  videos?: boolean;
}

export function showOptions(given: readonly string[], flags: ShowFlags = {}, argv: readonly string[] = []): ShowOptions {
  const { flag, positional } = splitImagesValue(flags.images, '--images', argv);
  const args = positional === undefined ? given : [positional, ...given];
  assertNoEmptyIds(args);
  const images = drawFlags(flag, flags.size, '--images');
  if (flags.dir !== undefined && images === undefined) throw new UsageError('--dir goes with --images: it is where the images are looked for and kept.');
  if (flags.videos && !flags.web) throw new UsageError('--videos goes with --web: it puts the videos on the page.');
  if (flags.web && images) throw new UsageError('--images draws the pictures at the terminal, --web shows them in the browser: give one of them.');
  const web = flags.web ? { videos: flags.videos === true } : undefined;
  return { ids: [...args], images, dir: flags.dir, search: flags.search === true || undefined, web };
}

/** Each text resolved locally; a name of several is an error when it is the only one. */
async function resolvedArgs(args: readonly string[], ctx: Context): Promise<string[]> {
  const out: string[] = [];
  for (const arg of args) {
    const r = arg === '-' ? undefined : await resolveGiven(ctx, arg);
    out.push(r?.kind === 'id' ? r.id : r?.kind === 'several' && args.length === 1 ? await oneOf(ctx, arg, r.matches) : arg);
  }
  return out;
}

/** A text with no id or name, tried once more locally (another case, an alias, part of a name), then with --search; undefined when not found. */
async function retryMissing(typed: string, options: ShowOptions, ctx: Context, api: ApiClient, many: boolean): Promise<ExerciseRecord | undefined> {
  let r = await resolveLocally(ctx, typed, { partial: true });
  if (r.kind === 'unknown' && options.search) r = await resolveBySearch(ctx, api, typed);
  if (r.kind === 'several' && !many) r = { kind: 'id', id: await oneOf(ctx, typed, r.matches) };
  if (r.kind !== 'id' || r.id === typed) return undefined;
  tellResolution(ctx, r);
  return recordOf(ctx, api, r.id);
}

export async function run(options: ShowOptions, ctx: Context): Promise<void> {
  // With no id: the one picked at a terminal, else a usage error.
  const given =
    options.ids.length > 0 ? options.ids : [await pickMissingId(ctx, 'show', 'Give at least one exercise id or name, or - to read them from stdin.')];
  const args = await resolvedArgs(given, ctx);
  const many = args.length > 1 || args.includes('-');
  // It checks `--json <fields>` before any request.
  const writer = createRecordWriter(ctx, many);
  const lang = langInForce(ctx.settings());
  const api = await ctx.api();

  const missing: string[] = [];
  const shown: ExerciseRecord[] = [];
  let total = 0;
  const add = async (record: ExerciseRecord): Promise<void> => {
    if (options.images || options.web) shown.push(record);
    if (!options.web) await writer.add(record);
  };
  const emit = async (outcome: RecordOutcome): Promise<void> => {
    if ('record' in outcome) return add(outcome.record);
    if (!(outcome.error instanceof NotFoundError)) throw outcome.error; // auth, network…: stop now
    const found = await retryMissing(outcome.id, options, ctx, api, many);
    if (found) return add(found);
    missing.push(outcome.id);
    // With several ids, say which as it happens; the summary error comes at the end.
    if (many) {
      const near = await nearIds(ctx, outcome.id);
      writeNotice(ctx.io, `Not found: ${oneLine(outcome.id)}${near.length > 0 ? ` (did you mean ${orList(near)}?)` : ''}`); // a failure: shown even with --quiet
    }
  };

  const ids = requestedIds(args, ctx.io, ctx.globals.quiet);
  const spinner = startSpinner(ctx, 'Fetching…');
  try {
    for await (const outcome of fetchRecords(api, ids, { ...(lang ? { lang } : {}), concurrency: SHOW_CONCURRENCY })) {
      total++;
      if (many) spinner.clear();
      else spinner.stop();
      await emit(outcome);
      if (many) spinner.update(`Fetching… ${total} done`);
    }
  } finally {
    spinner.stop();
    // Even when an error stops the run, what was printed stays well-formed.
    await writer.finish();
  }

  if (total === 0) throw noIdsOnStdin();
  if (options.web && shown.length > 0) {
    const kinds = ['image', 'video'] as const;
    await showOnWeb(ctx, api, shown, { kinds, fetch: options.web.videos ? kinds : ['image'] });
  }
  if (options.images) {
    const dir = options.dir !== undefined ? { dir: outputDir(options.dir) } : {};
    // One record: its pictures share the screen with it; after several, each is fitted alone.
    for (const record of shown) await viewImages(ctx, api, record, { ...options.images, ...dir, besideRecord: total === 1 });
  }
  if (missing.length > 0) {
    throw new NotFoundError(
      total === 1
        ? `No exercise has the id or name "${missing[0]}".`
        : `${missing.length} of ${total} exercises ${missing.length === 1 ? 'was' : 'were'} not found (named above).`,
      {
        hint: total === 1 ? ((await nearIdsHint(ctx, missing[0]!)) ?? searchHint(missing[0]!, options, await recordsAreLocal(ctx))) : NOT_FOUND_HINT,
        details: { missing },
      },
    );
  }
}

/** What to try when nothing was found: the exact query to run (no placeholder), and --search where it would spend a request. */
function searchHint(typed: string, options: ShowOptions, local: boolean): string {
  const search = !local && !options.search ? ', or add --search to look it up by part of its name (one listing request)' : '';
  return `Search by name with \`${nameQuery(typed)}\`${search}; list ids with \`exercises ids\`.`;
}

export const register: RegisterCommand<ShowOptions> = (program, context, runF = run) => {
  const cmd = program
    .command('show')
    .description('show exercises by id or name; - reads ids from stdin')
    .argument('[id-or-name...]', 'exercise ids or names (quote names with spaces); - for stdin; none at a terminal: pick one')
    .option('--images [protocol]', 'draw the premium images at the terminal after the record: kitty, iterm or blocks (default: found from the terminal)')
    .option('--dir <dir>', 'with --images: where images are looked for and kept, as <dir>/<id>/<name>.png (default: a folder of the cache directory)')
    .option('--size <WxH>', 'with --images: the columns and lines each picture may take (default: fitted to the terminal, beside the record)')
    .option('--search', 'an id or name the service does not have is looked up by part of its name (one listing request)')
    .option('--web', 'open the exercises in the browser: a page with their pictures, and their videos already on disk')
    .option('--videos', 'with --web: fetch the videos too (a request each)');
  addExamples(
    cmd,
    [
      'exercises show Barbell_Bench_Press',
      'exercises show "Barbell Back Squat"',
      'exercises --sandbox show "bench press"',
      'exercises show "flat bench" --search',
      'exercises show Barbell_Bench_Press Conventional_Deadlift --lang de-DE',
      'exercises show',
      'exercises show Plank --images',
      'exercises show Push_Up --web --videos',
    ],
    [
      'exercises show Barbell_Bench_Press --format json | jq .instructions',
      'exercises ids --all | exercises show - --format jsonl > catalogue.jsonl',
      'exercises query --muscle chest --format jsonl | exercises show - --format csv > chest.csv',
      'printf "%s\\n" Barbell_Back_Squat Conventional_Deadlift | exercises show - --format tsv',
    ],
  );
  cmd.action(async (args: string[], flags: ShowFlags) => {
    const ctx = context();
    await runF(showOptions(args, flags, ctx.argv), ctx);
  });
};
