/**
 * The two inline-image protocols that take a PNG file as it is, base64-encoded, with no
 * decoding on our side:
 * - kitty's graphics protocol: APC `ESC _ G <keys> ; <payload> ESC \`, the payload cut into
 *   chunks of at most 4096 bytes, `m=1` on every chunk but the last (`f=100`: PNG data,
 *   `a=T`: transmit and display at the cursor, `c`/`r`: the cells it covers);
 * - iTerm2's: OSC 1337 `ESC ] 1337 ; File=inline=1;size=<bytes>;width=<c>;height=<r>:<base64> BEL`.
 * Each covers the cells fit.ts gives and ends with a line break, so what follows starts below
 * the picture.
 */
import type { CellBox } from './fit.js';

/** kitty's limit on one chunk of the payload. */
export const KITTY_CHUNK = 4096;

export function kittySequence(png: Buffer, cells: CellBox): string {
  const data = png.toString('base64');
  const chunks: string[] = [];
  for (let at = 0; at < data.length; at += KITTY_CHUNK) chunks.push(data.slice(at, at + KITTY_CHUNK));
  if (chunks.length === 0) chunks.push('');
  const last = chunks.length - 1;
  return `${chunks.map((chunk, i) => `\u001b_G${i === 0 ? `a=T,f=100,c=${cells.columns},r=${cells.rows},` : ''}m=${i < last ? 1 : 0};${chunk}\u001b\\`).join('')}\n`;
}

export function itermSequence(png: Buffer, cells: CellBox): string {
  return `\u001b]1337;File=inline=1;size=${png.length};width=${cells.columns};height=${cells.rows};preserveAspectRatio=1:${png.toString('base64')}\u0007\n`;
}
