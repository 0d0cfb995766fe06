/**
 * `show --images` and `image --view`: a record's premium images drawn at the terminal. Each comes
 * from the catalogue directory, the kept folder (`--dir`, else the cache's `pictures/`), or the
 * service (then kept). Every file is read by the one rule and held to the pixel budget; a picture
 * that cannot be drawn is one line on stderr. Nothing is drawn into a pipe or a machine format.
 */
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { cacheRoot, checkCacheRoot, checkOwnDir, makePrivateDir } from '../../cache/store-files.js';
import type { ApiClient } from '../../api/client.js';
import { type Context, type Env, type IOStreams, colorEnabled, colorLevel, outputFormat } from '../../context.js';
import type { ExerciseRecord } from '../../catalogue/types.js';
import { MEDIA_SIZE_CAP_BYTES, TERMINAL_ROWS_FALLBACK } from '../../defaults.js';
import { type MediaJob, jobsForRecord, describeUnusable } from '../../media/jobs.js';
import type { ImageProtocol } from '../../output/images/protocol.js';
import { escapeUnsafe } from '../../util/text.js';
import { readRegularFile } from '../../util/safe-open.js';
import { PNG_SIGNATURE } from '../../media/verify.js';
import { MEDIA, type MediaKind } from '../../catalogue/media.js';
import { runMediaJobs } from './media-run.js';
import { resolveMediaFile } from '../../server/media.js';
import { type CellBox, PictureRefusedError, detectImageProtocol, inlineImage } from '../../output/images/index.js';
import { catalogueDir } from '../../prompt/known-exercises.js';
import { renderRecordText } from '../../output/record.js';

function picturesDir(env: Env): string {
  return join(cacheRoot(env), 'pictures');
}

/** The pictures folder's file count and bytes; nothing when absent. */
export async function picturesUsage(env: Env): Promise<{ path: string; files: number; bytes: number }> {
  const dir = picturesDir(env);
  let files = 0;
  let bytes = 0;
  checkOwnDir(dir);
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    files++;
    bytes += await stat(join(entry.parentPath, entry.name)).then(
      (s) => s.size,
      () => 0,
    );
  }
  return { path: dir, files, bytes };
}

/** Removes the pictures folder and the `--web` pages (a planted link is refused); returns the pictures' file count. */
export async function clearPictures(env: Env): Promise<number> {
  const { path, files } = await picturesUsage(env);
  const pages = join(cacheRoot(env), 'web');
  checkOwnDir(pages);
  await Promise.all([path, pages].map((dir) => rm(dir, { recursive: true, force: true })));
  return files;
}

function cannotDraw(ctx: Context, protocol: ImageProtocol): string | undefined {
  if (!ctx.io.stdoutIsTTY) return 'stdout is not a terminal';
  if (outputFormat(ctx) !== 'table') return `the output is ${outputFormat(ctx)}`;
  if (protocol === 'blocks' && (!colorEnabled(ctx) || ctx.env.TERM === 'dumb')) return 'the terminal shows no colour (NO_COLOR, --no-color or TERM=dumb)';
  return undefined;
}

/** A picture file's bytes; undefined when there is no file. */
async function readPicture(path: string): Promise<Buffer | undefined> {
  try {
    return await readRegularFile(path, { maxBytes: MEDIA_SIZE_CAP_BYTES.image });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

const isPng = (bytes: Buffer | undefined): bytes is Buffer => bytes !== undefined && bytes.subarray(0, PNG_SIGNATURE.length).equals(PNG_SIGNATURE);

export function catalogueFile(catalogue: string, job: MediaJob): Promise<string | undefined> {
  return resolveMediaFile(catalogue, MEDIA[job.kind].folder, job.exerciseId, `${job.name}${MEDIA[job.kind].extension}`);
}

/** A job's picture: from the catalogue, the kept folder, or downloaded there; undefined when the download failed (said on stderr). */
async function pictureOf(ctx: Context, api: ApiClient, job: MediaJob, catalogue: string | undefined): Promise<{ file: string; png: Buffer } | undefined> {
  const found = catalogue === undefined ? undefined : await catalogueFile(catalogue, job);
  if (found !== undefined) return { file: found, png: (await readPicture(found)) ?? Buffer.alloc(0) };
  const kept = await readPicture(job.path);
  if (isPng(kept)) return { file: job.path, png: kept };
  const summary = await runMediaJobs(ctx, api, [job], { concurrency: 1, skipExisting: true, failFast: false });
  const outcome = summary.outcomes[0];
  if (outcome?.status === 'failed') {
    ctx.io.stderr.write(`Cannot draw ${job.what}: ${escapeUnsafe(outcome.error?.message ?? 'the download failed')}\n`);
    return undefined;
  }
  return { file: job.path, png: (await readPicture(job.path)) ?? Buffer.alloc(0) };
}

/** The jobs of a record's media of `kinds` into `dir` (only those named, when names are given). */
export function recordMediaJobs(ctx: Context, api: ApiClient, dir: string, record: ExerciseRecord, kinds: readonly MediaKind[], names?: readonly string[]) {
  const wanted = new Set(names?.map((n) => n.replace(/\.png$/i, '')));
  const jobs = jobsForRecord(api, dir, record.id ?? record.name, record, kinds, (u) => void ctx.io.stderr.write(`Skipped: ${describeUnusable(u)}\n`));
  return jobs.filter((j) => wanted.size === 0 || j.kind !== 'image' || wanted.has(j.name));
}

/** The kept media folder (`pictures/` of the cache directory), checked and made private. */
export function keptMediaDir(env: Env): string {
  checkCacheRoot(cacheRoot(env));
  const dir = picturesDir(env);
  checkOwnDir(dir);
  makePrivateDir(dir);
  return dir;
}

export interface ViewImagesOptions {
  protocol?: ImageProtocol;
  /** `--dir`: where images are looked for and kept. */
  dir?: string;
  names?: readonly string[];
  /** `--size WxH`, instead of the terminal's size. */
  size?: CellBox;
  /** Drawn right after the record (`show` of one): the pictures leave the record on screen. */
  besideRecord?: boolean;
}

/** Below this many lines, a picture beside its record is not recognisable: a hint says how to see it instead. */
const MIN_ROWS_BESIDE_RECORD = 8;

/**
 * The cells each of `count` pictures may take, with a name line above each and the prompt's line kept
 * free. After a record, each takes at most half of what it leaves, so the record is not scrolled away.
 */
export function pictureBox(io: Pick<IOStreams, 'columns' | 'rows'>, count: number, recordLines?: number): CellBox {
  const rows = io.rows ?? TERMINAL_ROWS_FALLBACK;
  const free = rows - 1;
  if (recordLines === undefined) return { columns: io.columns, rows: Math.max(1, free - 1) };
  const shared = Math.floor((free - recordLines) / count) - 1;
  return { columns: io.columns, rows: Math.max(1, Math.min(Math.floor(rows / 2), shared)) };
}

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
  const dir = options.dir ?? keptMediaDir(ctx.env);
  const jobs = recordMediaJobs(ctx, api, dir, record, ['image'], options.names);
  if (jobs.length === 0) {
    ctx.io.stderr.write(`No images to draw for ${escapeUnsafe(id)}: its record lists none${options.names?.length ? ' of those names' : ''}.\n`);
    return;
  }
  const recordLines = options.besideRecord ? renderRecordText(record, { width: ctx.io.columns }).split('\n').length - 1 : undefined;
  const box = options.size ?? pictureBox(ctx.io, jobs.length, recordLines);
  if (options.size === undefined && box.rows < MIN_ROWS_BESIDE_RECORD && recordLines !== undefined) {
    const shown = escapeUnsafe(id);
    ctx.io.stderr.write(
      `The pictures would be too small to recognise beside the record: \`exercises image ${shown} --view\` draws them, \`exercises show ${shown} --web\` opens them in the browser.\n`,
    );
    return;
  }
  const truecolor = colorLevel(ctx.env) === 3;
  for (const job of jobs) {
    let drawn: string;
    let file: string | undefined;
    try {
      const picture = await pictureOf(ctx, api, job, catalogue);
      if (picture === undefined) continue;
      file = picture.file;
      drawn = await inlineImage(picture.png, protocol, { box, truecolor });
    } catch (err) {
      if (!(err instanceof PictureRefusedError) && (err as NodeJS.ErrnoException).code !== 'EREFUSED' && file === undefined) throw err;
      ctx.io.stderr.write(`Cannot draw ${job.what}${file !== undefined ? ` (${escapeUnsafe(file)})` : ''}: ${escapeUnsafe((err as Error).message)}.\n`);
      continue;
    }
    ctx.io.stdout.write(`${escapeUnsafe(job.name)}\n${drawn}`);
  }
}
