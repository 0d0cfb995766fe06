/** `exercises cache info|clear`: the response cache's place and size, and removing it (never the request ledger beside it). */
import { type Context, outputFormat } from '../context.js';
import type { RegisterCommand } from './shared/register.js';
import { addExamples, helpWhenBare } from './shared/help.js';
import { ResponseCache } from '../cache/response-cache.js';
import { cacheRoot, httpCacheDir } from '../cache/store-files.js';
import { clearPictures, picturesUsage } from './shared/view-images.js';
import { plural } from '../util/text.js';

export type CacheOptions = { action: 'info' } | { action: 'clear' };

function kib(bytes: number): string {
  return bytes < 1024 ? `${bytes} bytes` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KiB` : `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

async function info(ctx: Context): Promise<void> {
  const found = await ResponseCache.open(httpCacheDir(cacheRoot(ctx.env))).info();
  const pictures = await picturesUsage(ctx.env);
  const format = outputFormat(ctx);
  if (format === 'json' || format === 'jsonl') {
    ctx.io.stdout.write(`${JSON.stringify({ ...found, oldest: found.oldest === null ? null : new Date(found.oldest).toISOString(), pictures })}\n`);
    return;
  }
  ctx.io.stdout.write(
    [
      `Location: ${found.path}`,
      `Entries:  ${found.entries}`,
      `Size:     ${kib(found.bytes)}`,
      `Oldest:   ${found.oldest === null ? '-' : new Date(found.oldest).toISOString()}`,
      `Pictures: ${pictures.files} (${kib(pictures.bytes)}) in ${pictures.path}`,
    ].join('\n') + '\n',
  );
}

/**
 * Clears the store while other processes may write it (it is renamed aside first): the count of
 * entries removed, and a warning for any file a late writer kept. A planted link is CacheDirError (exit 6).
 */
async function clear(ctx: Context): Promise<void> {
  const cache = ResponseCache.open(httpCacheDir(cacheRoot(ctx.env)));
  const { entries } = await cache.info();
  const left = await cache.clear();
  const pictures = await clearPictures(ctx.env);
  if (left > 0) ctx.io.stderr.write(`warning: ${plural(left, 'file')} written while clearing could not be removed; run \`exercises cache clear\` again.\n`);
  if (!ctx.globals.quiet) ctx.io.stderr.write(`Removed ${plural(entries, 'cache entry', 'cache entries')} from ${cache.path}.\n`);
  if (pictures > 0 && !ctx.globals.quiet) ctx.io.stderr.write(`Removed ${plural(pictures, 'picture')} kept for viewing.\n`);
}

export async function run(options: CacheOptions, ctx: Context): Promise<void> {
  return options.action === 'info' ? info(ctx) : clear(ctx);
}

export const register: RegisterCommand<CacheOptions> = (program, context, runF = run) => {
  const cache = program.command('cache').description('the response cache of JSON answers: where it is, what it holds, clearing it');

  const infoCmd = cache.command('info').description('location, entries, bytes on disk and the oldest entry');
  addExamples(infoCmd, ['exercises cache info'], ['exercises cache info --json | jq .bytes']);
  infoCmd.action(() => runF({ action: 'info' }, context()));

  const clearCmd = cache.command('clear').description('remove every cached answer (the request count of `quota` stays)');
  addExamples(clearCmd, ['exercises cache clear'], ['exercises cache clear --quiet']);
  clearCmd.action(() => runF({ action: 'clear' }, context()));

  helpWhenBare(cache);
  addExamples(cache, ['exercises cache info', 'exercises cache clear', 'exercises --refresh show Push_Up'], ['exercises cache info --json | jq .entries']);
};
