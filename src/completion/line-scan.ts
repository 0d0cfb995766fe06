/**
 * The few lines of a large text file that can match what was typed, for a TAB: the file is read as one
 * character per byte, searched natively, and only the lines found are decoded.
 */
import { LOCAL_INDEX_MAX_BYTES } from '../defaults.js';
import { readRegularFileSync } from '../util/safe-open.js';

/** A file's bytes, one character each; undefined when unreadable or not a regular file within `maxBytes` (a FIFO must not hang a TAB). */
export function readBytes(file: string, maxBytes = LOCAL_INDEX_MAX_BYTES): string | undefined {
  try {
    return readRegularFileSync(file, { maxBytes }).toString('latin1');
  } catch {
    return undefined;
  }
}

export function asBytes(text: string): string {
  return Buffer.from(text, 'utf8').toString('latin1');
}

/** Whether a prefix can be searched case-insensitively in bytes (ASCII only). */
export function isAscii(text: string): boolean {
  return /^[\x00-\x7f]*$/.test(text);
}

export interface LineMatch {
  start: number;
  at: number;
}

/**
 * The lines holding `marker + prefix` (each once, in file order, at most `limit`), the prefix in any case
 * with `ignoreCase` (marker lower case, prefix ASCII); `first`: only at the marker's first occurrence in the line.
 */
export function linesWith(bytes: string, marker: string, prefix: string, options: { ignoreCase: boolean; first: boolean; limit?: number }): LineMatch[] {
  const limit = options.limit ?? Infinity;
  const haystack = options.ignoreCase ? bytes.toLowerCase() : bytes;
  const needle = marker + (options.ignoreCase ? prefix.toLowerCase() : asBytes(prefix));
  const out: LineMatch[] = [];
  let lastStart = -1;
  for (let at = haystack.indexOf(needle); at >= 0 && out.length < limit; at = haystack.indexOf(needle, at + 1)) {
    const start = haystack.lastIndexOf('\n', at + marker.length - 1) + 1;
    if (start === lastStart) continue;
    if (options.first && haystack.indexOf(marker, start) !== at) continue;
    lastStart = start;
    out.push({ start, at });
  }
  return out;
}

export function firstLines(bytes: string, limit: number): number[] {
  const out: number[] = [];
  for (let start = 0; start < bytes.length && out.length < limit;) {
    out.push(start);
    const end = bytes.indexOf('\n', start);
    start = end < 0 ? bytes.length : end + 1;
  }
  return out;
}

/** The line of `bytes` that starts at `start`, decoded, without its line break. */
export function lineAt(bytes: string, start: number): string {
  const end = bytes.indexOf('\n', start);
  const raw = bytes.slice(start, end < 0 ? bytes.length : end);
  // ASCII reads the same as bytes: decode only the others.
  const line = isAscii(raw) ? raw : Buffer.from(raw, 'latin1').toString('utf8');
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}

export function mergeLines(a: readonly LineMatch[], b: readonly LineMatch[]): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const next = j >= b.length || (i < a.length && a[i]!.start <= b[j]!.start) ? a[i++]!.start : b[j++]!.start;
    if (out[out.length - 1] !== next) out.push(next);
  }
  return out;
}
