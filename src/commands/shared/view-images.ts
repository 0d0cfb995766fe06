/**
 * `show --images` and `image --view`: the premium images of a record drawn at the terminal
 * (src/output/images). Each image comes from disk when it is there, first the catalogue
 * directory answering the run, then the `--dir` layout (`<dir>/<id>/<name>.png`), and only
 * then from the service, kept in the `--dir` layout for next time. Nothing is drawn into a
 * pipe, a file or a machine-readable format, and a free plan's record (no premium fields) says
 * why there is nothing to draw.
 */
import { readFile } from 'node:fs/promises';
import type { ApiClient } from '../../api/client.js';
import { type Context, colorEnabled, colorLevel, outputFormat } from '../../context.js';
import type { ExerciseRecord } from '../../catalogue/types.js';
import { type MediaJob, jobsForRecord, describeUnusable } from '../../media/jobs.js';
import type { ImageProtocol } from '../../output/images/protocol.js';
import { escapeUnsafe } from '../../util/text.js';
import { PNG_SIGNATURE, looksComplete } from '../../media/verify.js';
import { runMediaJobs } from './media-run.js';
import { resolveMediaFile } from '../../server/media.js';
import { detectImageProtocol, inlineImage } from '../../output/images/index.js';
import { catalogueDir } from '../../prompt/known-exercises.js';

/** Why images cannot be drawn on this run's stdout, or undefined when they can. */
function cannotDraw(ctx: Context, protocol: ImageProtocol): string | undefined {
  if (!ctx.io.stdoutIsTTY) return 'stdout is not a terminal';
  if (outputFormat(ctx) !== 'table') return `the output is ${outputFormat(ctx)}`;
  if (protocol === 'blocks' && (!colorEnabled(ctx) || ctx.env.TERM === 'dumb')) return 'the terminal shows no colour (NO_COLOR, --no-color or TERM=dumb)';
  return undefined;
}

/** The file for a job: from the catalogue directory, else from the --dir layout, else downloaded there. */
async function imageFile(ctx: Context, api: ApiClient, job: MediaJob, catalogue: string | undefined): Promise<string | undefined> {
  if (catalogue !== undefined) {
    const found = await resolveMediaFile(catalogue, 'images', job.exerciseId, `${job.name}.png`);
    if (found !== undefined) return found;
  }
  if (await looksComplete('image', job.path)) return job.path;
  const summary = await runMediaJobs(ctx, api, [job], { concurrency: 1, skipExisting: true, failFast: false });
  const outcome = summary.outcomes[0];
  if (outcome?.status === 'failed') {
    ctx.io.stderr.write(`Cannot draw ${job.what}: ${escapeUnsafe(outcome.error?.message ?? 'the download failed')}\n`);
    return undefined;
  }
  return job.path;
}

export interface ViewImagesOptions {
  /** The protocol forced by the flag; detected from the environment without one. */
  protocol?: ImageProtocol;
  /** The --dir layout images are looked for in and kept in. */
  dir: string;
  /** Only these images (by name); all the record lists without. */
  names?: readonly string[];
}

/** Draws the premium images of `record` on stdout (see the module comment). */
export async function viewImages(ctx: Context, api: ApiClient, record: ExerciseRecord, options: ViewImagesOptions): Promise<void> {
  const protocol = options.protocol ?? detectImageProtocol(ctx.env);
  const why = cannotDraw(ctx, protocol);
  const id = record.id ?? record.name;
  if (why !== undefined) {
    if (!ctx.globals.quiet) ctx.io.stderr.write(`Images are not drawn: ${why}.\n`);
    return;
  }
  if (record.premiumImages === undefined) {
    ctx.io.stderr.write(
      `No images to draw for ${escapeUnsafe(id)}: its record lists no premium images, as a free plan's records never do; a premium plan's key shows them.\n`,
    );
    return;
  }
  const catalogue = await catalogueDir(ctx);
  let jobs = jobsForRecord(api, options.dir, id, record, ['image'], (u) => void ctx.io.stderr.write(`Skipped: ${describeUnusable(u)}\n`));
  if (options.names && options.names.length > 0) {
    const wanted = new Set(options.names.map((n) => n.replace(/\.png$/i, '')));
    jobs = jobs.filter((j) => wanted.has(j.name));
  }
  if (jobs.length === 0) {
    ctx.io.stderr.write(`No images to draw for ${escapeUnsafe(id)}: its record lists none${options.names?.length ? ' of those names' : ''}.\n`);
    return;
  }
  const columns = ctx.io.columns;
  const truecolor = colorLevel(ctx.env) === 3;
  for (const job of jobs) {
    const file = await imageFile(ctx, api, job, catalogue);
    if (file === undefined) continue;
    const png = await readFile(file);
    let drawn: string;
    try {
      if (!png.subarray(0, PNG_SIGNATURE.length).equals(PNG_SIGNATURE)) throw new Error('not a PNG file');
      drawn = await inlineImage(png, protocol, { columns, truecolor });
    } catch (err) {
      ctx.io.stderr.write(`Cannot draw ${job.what} (${file}): ${escapeUnsafe((err as Error).message)}.\n`);
      continue;
    }
    ctx.io.stdout.write(`${escapeUnsafe(job.name)}\n${drawn}`);
  }
}
