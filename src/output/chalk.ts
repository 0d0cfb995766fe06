/**
 * The chalk instance the renderers paint with: made for the context's stream, level and
 * environment, never chalk's default instance (that one decides from the process's own
 * streams and variables, not from the context). chalk itself is loaded only when colour is on
 * (src/vendor/chalk.ts).
 */
import type { ChalkInstance } from 'chalk';
import { type Context, colorEnabled, colorLevel } from '../context.js';
import { loadChalk } from '../vendor/chalk.js';

/** A chalk instance for the stream when colour is on (colorEnabled), at the context's level; undefined when off. */
export async function chalkFor(ctx: Pick<Context, 'io' | 'env' | 'globals'>, stream: 'stdout' | 'stderr' = 'stdout'): Promise<ChalkInstance | undefined> {
  if (!colorEnabled(ctx, stream)) return undefined;
  const { Chalk } = await loadChalk();
  return new Chalk({ level: colorLevel(ctx.env) });
}
