/**
 * Colour on a terminal, never in a pipe: a chalk instance made for the context's stream and environment
 * (never chalk's default, which reads the process's), loaded only when colour is on. JSON is coloured as
 * gh and jq do, the codes wrapping tokens of already safe text.
 */
import type { ChalkInstance } from 'chalk';
import { type Context, colorEnabled, colorLevel } from '../context.js';
import { loadChalk } from '../vendor/load.js';

/** A chalk instance for the stream when colour is on; undefined when off. */
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
