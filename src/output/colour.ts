/**
 * Colour on a terminal, never in a pipe. The chalk instance the renderers paint with is made
 * for the context's stream, level and environment, never chalk's default instance (that one
 * decides from the process's own streams and variables); chalk itself is loaded only when
 * colour is on (src/vendor/load.ts). JSON is coloured as gh and jq do: keys blue, strings
 * green, numbers cyan, true/false/null magenta; the codes only wrap the tokens of jsonText's
 * (already terminal-safe) text, so the data read is the same.
 */
import type { ChalkInstance } from 'chalk';
import { type Context, colorEnabled, colorLevel } from '../context.js';
import { loadChalk } from '../vendor/load.js';

/** A chalk instance for the stream when colour is on (colorEnabled), at the context's level; undefined when off. */
export async function chalkFor(ctx: Pick<Context, 'io' | 'env' | 'globals'>, stream: 'stdout' | 'stderr' = 'stdout'): Promise<ChalkInstance | undefined> {
  if (!colorEnabled(ctx, stream)) return undefined;
  const { Chalk } = await loadChalk();
  return new Chalk({ level: colorLevel(ctx.env) });
}

const TOKEN = /("(?:[^"\\]|\\.)*")(\s*:)?|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|\b(true|false|null)\b/g;

const paint = (code: number, text: string): string => `\u001b[${code}m${text}\u001b[39m`;

export function colorJson(text: string): string {
  return text.replace(TOKEN, (_m, str: string | undefined, colon: string | undefined, num: string | undefined, lit: string | undefined) => {
    if (str !== undefined) return colon !== undefined ? `${paint(34, str)}${colon}` : paint(32, str);
    if (num !== undefined) return paint(36, num);
    return paint(35, lit!);
  });
}
