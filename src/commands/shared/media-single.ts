/**
 * `image` and `video`: the media of one exercise. Without names, every one its record lists
 * (one record request). With names, straight to the media with the text as the id (no record
 * request); only when the service has no such media under it is the text resolved once, as an
 * id or a name, and the media fetched again under the record's real id (so `image "Barbell
 * Bench Press" start` works, in a folder named by the id). `-o <file>` / `-o -` for exactly one
 * file, `--dir` otherwise.
 *
 * The steps of a run: the id (asked for at a terminal when none was given), the jobs
 * (media-single-jobs.ts, as is the one file of `-o` or the folder they are saved to).
 */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { Context, IOStreams } from '../../context.js';
import { langInForce } from '../../config/settings.js';
import { UsageError } from '../../errors.js';
import { MEDIA, type MediaKind } from '../../catalogue/media.js';
import { outputTarget } from '../../media/output-target.js';
import { isDotSegment } from '../../api/client.js';
import type { ApiClient } from '../../api/client.js';
import type { ImageProtocol } from '../../output/images/protocol.js';
import { pickMissingId } from '../../prompt/pick.js';
import type { Run } from './register.js';
import { addExamples } from './help.js';
import { assertNoEmptyIds } from './requested-ids.js';
import { outputDir } from './media-run.js';
import { imagesFlag, sizeFlag, splitImagesValue } from './flags.js';
import type { CellBox } from '../../output/images/fit.js';
import { PLURAL, findJobs, saveOne, saveToDir } from './media-single-jobs.js';
import { viewImages } from './view-images.js';
import { ambiguousError, recordsAreLocal, resolveLocally, tellResolution } from './requested-ids.js';

export interface SingleMediaOptions {
  kind: MediaKind;
  /** Undefined: none was given, and the picker chooses one (at a terminal). */
  idOrName?: string;
  /** Media names to fetch; none means every one the record lists. */
  names: string[];
  /** `-o`: the one file to write, `-` for stdout. */
  output?: string;
  /** `--dir`, resolved: the folder for <id>/<name> files. */
  dir: string;
  /** `--overwrite`: download again even when a complete file is already there. */
  overwrite: boolean;
  /**
   * `image --view[=protocol]`: draw the images at the terminal (from disk first) instead of only
   * saving them; fetched ones are kept in `--dir` when given, else in the cache directory.
   */
  view?: { protocol?: ImageProtocol; size?: CellBox; dir?: string };
}

/** The flags as commander parsed them. */
export interface SingleMediaFlags {
  output?: string;
  dir?: string;
  overwrite?: boolean;
  view?: unknown;
  size?: string;
}

/** Checks the arguments and flags (usage errors, before any request) and builds the options. */
export function singleMediaOptions(
  kind: MediaKind,
  idOrName: string | undefined,
  names: string[],
  flags: SingleMediaFlags,
  io: Pick<IOStreams, 'stdoutIsTTY'>,
): SingleMediaOptions {
  if (idOrName !== undefined) assertNoEmptyIds([idOrName]);
  if (idOrName !== undefined && isDotSegment(idOrName)) throw new UsageError(`"${idOrName}" cannot be an exercise id or name.`);
  if (names.some((n) => n.trim() === '')) throw new UsageError(`A ${kind} name cannot be empty.`);
  if (flags.output !== undefined && flags.dir !== undefined)
    throw new UsageError('-o and --dir cannot be used together: -o names one file, --dir a folder for all of them.');
  if (flags.output === '-' && io.stdoutIsTTY) {
    throw new UsageError(`Refusing to write ${kind} bytes to the terminal.`, {
      hint: `Pipe or redirect it (\`exercises ${kind} ${idOrName} ... -o - | ${kind === 'image' ? 'display -' : 'mpv -'}\`), or save it with -o <file> or --dir <dir>.`,
    });
  }
  const drawn = imagesFlag(flags.view, '--view');
  const size = sizeFlag(flags.size, '--view', drawn !== undefined);
  const view = drawn && { ...drawn, ...(size ? { size } : {}), ...(flags.dir !== undefined ? { dir: outputDir(flags.dir) } : {}) };
  if (view && flags.output !== undefined) throw new UsageError('--view draws the images at the terminal; -o writes one to a file: give one of them.');
  if (flags.output !== undefined && names.length > 1)
    throw new UsageError(`-o takes exactly one ${kind}; ${names.length} names were given. Use --dir for several.`);
  return { kind, idOrName, names: [...names], output: flags.output, dir: outputDir(flags.dir), overwrite: flags.overwrite === true, view };
}

export async function runSingleMedia(options: SingleMediaOptions, ctx: Context): Promise<void> {
  const { kind } = options;
  const given = options.idOrName ?? (await pickMissingId(ctx, kind, `Give the id or name of the exercise whose ${PLURAL[kind]} to fetch.`));
  // `image push_up`, `image "Flat Bench"`: the id, found locally before any request (requested-ids.ts).
  // Unlike `show`, which sends a text without a space as typed to keep a cache hit fast, media
  // commands are no start-up path: an id in another case is resolved up front too.
  const resolution = await resolveLocally(ctx, given, { partial: await recordsAreLocal(ctx) });
  tellResolution(ctx, resolution);
  if (resolution.kind === 'several') throw ambiguousError(given, resolution.matches);
  const idOrName = resolution.kind === 'id' ? resolution.id : given;
  // What -o names is judged before any request: a directory or a socket is a usage error.
  const target = options.output === undefined || options.output === '-' ? undefined : outputTarget(resolve(options.output));
  const api = await ctx.api();
  if (options.view) return viewSingle(ctx, api, idOrName, options);

  const found = await findJobs(ctx, api, idOrName, options);
  // Nothing fetchable at all: the first reason is the answer (exit 6), not a summary of nothing.
  if (found.jobs.length === 0 && found.unusable[0]) throw found.unusable[0].error;
  if (options.output !== undefined) return saveOne(ctx, api, idOrName, options, target, found);
  return saveToDir(ctx, api, options, found);
}

/** `image --view`: the record (one request, or the cache), then its images drawn (shared/view-images.ts). */
async function viewSingle(ctx: Context, api: ApiClient, idOrName: string, options: SingleMediaOptions): Promise<void> {
  const lang = langInForce(ctx.settings());
  const record = await api.getExercise(idOrName, lang ? { lang } : {});
  await viewImages(ctx, api, record, { ...options.view, names: options.names });
}

export function registerSingleMedia(program: Command, context: () => Context, kind: MediaKind, runF: Run<SingleMediaOptions> = runSingleMedia): void {
  const ext = MEDIA[kind].extension.slice(1);
  const cmd = program
    .command(`${kind} [id-or-name] [names...]`)
    .description(`download premium ${PLURAL[kind]} of one exercise (all of them, or those named) to <dir>/<id>/<name>.${ext}`)
    .option('-o, --output <file>', `write the one ${kind} to this file; - writes it to stdout (not to a terminal)`)
    .option('--dir <dir>', 'folder to save into, as <dir>/<id>/<name> (default: the current directory)')
    .option('--overwrite', 'download again and overwrite files already present');
  if (kind === 'image')
    cmd
      .option(
        '--view [protocol]',
        'draw the images at the terminal, fitted to it (fetched ones kept in --dir if given, else in the cache directory): kitty, iterm or blocks (default: found from the terminal)',
      )
      .option('--size <WxH>', 'with --view: the columns and lines each picture may take (default: fitted to the terminal)');
  const viewer = kind === 'image' ? 'display -' : 'mpv -';
  addExamples(
    cmd,
    [
      `exercises ${kind} Barbell_Bench_Press`,
      `exercises ${kind} Barbell_Bench_Press ${kind === 'image' ? 'start end' : 'demo'} --dir media`,
      `exercises ${kind} "Barbell Bench Press" ${kind === 'image' ? 'start' : 'demo'} -o bench.${ext}`,
      `exercises --sandbox ${kind} Plank --dir /tmp/media --overwrite`,
      ...(kind === 'image' ? ['exercises image Plank --view'] : []),
    ],
    [`exercises ${kind} Barbell_Bench_Press ${kind === 'image' ? 'start' : 'demo'} -o - | ${viewer}`],
  );
  cmd.action(async (idOrName: string | undefined, names: string[], flags: SingleMediaFlags) => {
    const ctx = context();
    // `image --view Plank`: the id taken as the flag's value; `image Plank --view start`: a name.
    const { flag, positional } = splitImagesValue(flags.view, '--view', ctx.argv);
    if (positional !== undefined) {
      flags = { ...flags, view: flag };
      // The value came before the id (`image --view Plank start`): it is the id, the rest names.
      const before = idOrName === undefined || ctx.argv.indexOf('--view') < ctx.argv.indexOf(idOrName);
      if (before) [idOrName, names] = [positional, idOrName === undefined ? names : [idOrName, ...names]];
      else names = [positional, ...names];
    }
    await runF(singleMediaOptions(kind, idOrName, names, flags, ctx.io), ctx);
  });
}
