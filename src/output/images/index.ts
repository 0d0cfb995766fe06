/**
 * Draws a PNG at the terminal in the protocol chosen (protocol.ts), always within the budget
 * (png-cells.ts: PictureRefusedError, nothing decoded) and fitted into the box it is given
 * (fit.ts). The caller has made sure stdout is a terminal: none of this is ever written to a pipe.
 * - kitty's graphics protocol and iTerm2's take the PNG file as it is, base64-encoded, with no
 *   decoding on our side. kitty: APC `ESC _ G <keys> ; <payload> ESC \`, the payload cut into
 *   chunks of at most 4096 bytes, `m=1` on every chunk but the last (`f=100`: PNG data, `a=T`:
 *   transmit and display at the cursor, `c`/`r`: the cells it covers). iTerm2: OSC 1337
 *   `ESC ] 1337 ; File=inline=1;size=<bytes>;width=<c>;height=<r>:<base64> BEL`. Each ends with
 *   a line break, so what follows starts below the picture.
 * - Any other colour terminal gets half blocks: each character cell shows two pixels, the upper
 *   as the foreground colour of `▀` and the lower as its background, decoded straight into its
 *   cells (png-cells.ts); truecolour escapes where the terminal takes them, else the nearest of
 *   the 256-colour palette.
 */
import type { ImageProtocol } from './protocol.js';
import { type CellBox, fitCells } from './fit.js';
import { type Rgb, checkPngBudget, pngCells } from './png-cells.js';

export { type ImageProtocol, detectImageProtocol } from './protocol.js';
export { type CellBox } from './fit.js';
export { PictureRefusedError } from './png-cells.js';

export async function inlineImage(png: Buffer, protocol: ImageProtocol, options: { box: CellBox; truecolor: boolean }): Promise<string> {
  const { width, height } = checkPngBudget(png);
  if (protocol === 'blocks') return halfBlocks(png, options.box, options.truecolor);
  const cells = fitCells(width, height, options.box);
  return protocol === 'kitty' ? kittySequence(png, cells) : itermSequence(png, cells);
}

/** kitty's limit on one chunk of the payload. */
const KITTY_CHUNK = 4096;

export function kittySequence(png: Buffer, cells: CellBox): string {
  const chunks = png.toString('base64').match(new RegExp(`.{1,${KITTY_CHUNK}}`, 'g')) ?? [''];
  const last = chunks.length - 1;
  return `${chunks.map((chunk, i) => `\u001b_G${i === 0 ? `a=T,f=100,c=${cells.columns},r=${cells.rows},` : ''}m=${i < last ? 1 : 0};${chunk}\u001b\\`).join('')}\n`;
}

export function itermSequence(png: Buffer, cells: CellBox): string {
  return `\u001b]1337;File=inline=1;size=${png.length};width=${cells.columns};height=${cells.rows};preserveAspectRatio=1:${png.toString('base64')}\u0007\n`;
}

/** The xterm 256-colour palette index nearest to a colour: its 6×6×6 cube or its 24-step grey ramp. */
function ansi256(c: Rgb): number {
  const cube = [0, 95, 135, 175, 215, 255];
  const level = (v: number) => (v < 48 ? 0 : v < 115 ? 1 : Math.floor((v - 35) / 40));
  const [ri, gi, bi] = [level(c.r), level(c.g), level(c.b)];
  const grey = Math.min(23, Math.max(0, Math.round(((c.r + c.g + c.b) / 3 - 8) / 10)));
  const g = 8 + grey * 10;
  const dist = (r: number, gg: number, b: number) => (c.r - r) ** 2 + (c.g - gg) ** 2 + (c.b - b) ** 2;
  return dist(g, g, g) < dist(cube[ri]!, cube[gi]!, cube[bi]!) ? 232 + grey : 16 + 36 * ri + 6 * gi + bi;
}

/** A PNG as half blocks fitted into `box`: `▀` with the upper pixel as foreground and the lower as background, a reset at each line's end. */
export async function halfBlocks(png: Buffer, box: CellBox, truecolor: boolean): Promise<string> {
  const colour = (layer: 38 | 48, c: Rgb) => (truecolor ? `${layer};2;${c.r};${c.g};${c.b}` : `${layer};5;${ansi256(c)}`);
  return (await pngCells(png, box))
    .map((row) => `${row.map(([top, bottom]) => `\u001b[${colour(38, top!)};${colour(48, bottom!)}m▀`).join('')}\u001b[0m\n`)
    .join('');
}
