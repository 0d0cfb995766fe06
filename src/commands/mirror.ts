/** `exercises mirror <dir>`: writes a catalogue directory from the service (logic in src/mirror/). */
import type { MediaKind } from '../catalogue/media.js';
import { parseLangTag } from '../config/parsers.js';
import type { Context } from '../context.js';
import { MIRROR_CONCURRENCY } from '../defaults.js';
import { UsageError } from '../errors.js';
import { type MirrorOptions, runMirror } from '../mirror/run.js';
import type { RegisterCommand } from './shared/register.js';
import { addExamples } from './shared/help.js';
import { budgetFor, requireKey } from '../connection.js';
import { runMediaJobs } from './shared/media-run.js';
import { keyHash } from '../cache/cached-get.js';

export type { MirrorOptions };

export async function run(options: MirrorOptions, ctx: Context): Promise<void> {
  await runMirror(options, {
    connect: async () => {
      const conn = await ctx.connection();
      return {
        api: await ctx.apiFor(requireKey(conn)),
        budget: budgetFor(conn, ctx.settings()),
        // The sandbox's port changes every run: still one service.
        origin: conn.baseUrlSource === 'sandbox' ? 'sandbox' : conn.baseUrl.replace(/\/+$/, ''),
        keyHash: keyHash(conn.apiKey),
      };
    },
    // --no-cache: no response cache to keep a dry run's listing in.
    cachedApi: async () => (ctx.globals.cache ? ctx.api() : undefined),
    downloadMedia: (api, jobs, jobOptions) => runMediaJobs(ctx, api, jobs, jobOptions),
    stderr: ctx.io.stderr,
    stderrIsTTY: ctx.io.stderrIsTTY,
    columns: ctx.io.columns,
    quiet: ctx.globals.quiet,
    verbose: ctx.globals.verbose,
    signal: ctx.signal,
  });
}

const MEDIA_KINDS: Record<string, MediaKind> = { images: 'image', videos: 'video' };

function parseList(value: unknown): string[] {
  return typeof value === 'string' ? value.split(',').flatMap((v) => (v.trim() === '' ? [] : [v.trim()])) : [];
}

export function mirrorOptions(dir: string, opts: Record<string, unknown>, refresh: boolean): MirrorOptions {
  const langs = [...new Set(parseList(opts.langs).map((l) => parseLangTag(l, '--langs')))];
  const media = parseList(opts.media).map((m) => {
    const kind = MEDIA_KINDS[m.toLowerCase()];
    if (!kind) throw new UsageError(`--media takes images, videos or both (comma-separated), not "${m}".`);
    return kind;
  });
  return { dir, langs, media: [...new Set(media)], dryRun: opts.dryRun === true, refresh, concurrency: MIRROR_CONCURRENCY };
}

export const register: RegisterCommand<MirrorOptions> = (program, context, runF = run) => {
  const cmd = program
    .command('mirror')
    .description('write a catalogue directory from the service: every record, translations, media (read it with --catalogue or `serve`)')
    .argument('<dir>', 'the catalogue directory to write or bring up to date')
    .option('--langs <tags>', 'also fetch these languages (comma-separated, e.g. de-DE,es-ES): one request per exercise per language')
    .option('--media <kinds>', 'also download media: images, videos or images,videos (default: none)')
    .option('--dry-run', 'only say how many requests the run would spend', false);
  addExamples(
    cmd,
    ['exercises mirror ./catalogue', 'exercises mirror ./catalogue --langs de-DE,es-ES --media images,videos', 'exercises mirror ./catalogue --dry-run'],
    ['exercises mirror ./catalogue && exercises --catalogue ./catalogue query --primary-muscle CHEST'],
  );
  cmd.action(async (dir: string, opts: Record<string, unknown>) => {
    const ctx = context();
    await runF(mirrorOptions(dir, opts, ctx.globals.refresh), ctx);
  });
};
