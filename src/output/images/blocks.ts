/**
 * A PNG drawn with half blocks: each character cell shows two pixels, the upper as the
 * foreground colour of `▀` and the lower as its background, so a terminal with colour but
 * no image protocol still shows the picture. The PNG is decoded straight into its cells
 * (png-cells.ts: within the budget, fitted to its box, never scaled up). Truecolour escapes
 * where the terminal takes them, else the nearest of the 256-colour palette.
 */
import type { CellBox } from './fit.js';
import { type Rgb, pngCells } from './png-cells.js';

/** The xterm 256-colour palette index nearest to a colour: its 6×6×6 cube or its 24-step grey ramp. */
export function ansi256(c: Rgb): number {
  const cube = [0, 95, 135, 175, 215, 255];
  const level = (v: number) => (v < 48 ? 0 : v < 115 ? 1 : Math.floor((v - 35) / 40));
  const [ri, gi, bi] = [level(c.r), level(c.g), level(c.b)];
  const grey = Math.min(23, Math.max(0, Math.round(((c.r + c.g + c.b) / 3 - 8) / 10)));
  const g = 8 + grey * 10;
  const dist = (r: number, gg: number, b: number) => (c.r - r) ** 2 + (c.g - gg) ** 2 + (c.b - b) ** 2;
  return dist(g, g, g) < dist(cube[ri]!, cube[gi]!, cube[bi]!) ? 232 + grey : 16 + 36 * ri + 6 * gi + bi;
}

/** The cells as text: `▀` with the upper pixel as foreground and the lower as background, a reset at each line's end. */
export function halfBlockText(rows: Rgb[][][], truecolor: boolean): string {
  const fg = (c: Rgb) => (truecolor ? `38;2;${c.r};${c.g};${c.b}` : `38;5;${ansi256(c)}`);
  const bg = (c: Rgb) => (truecolor ? `48;2;${c.r};${c.g};${c.b}` : `48;5;${ansi256(c)}`);
  return rows.map((row) => `${row.map(([top, bottom]) => `\u001b[${fg(top!)};${bg(bottom!)}m▀`).join('')}\u001b[0m\n`).join('');
}

/** A PNG as half blocks fitted into `box`. */
export function halfBlocks(png: Buffer, box: CellBox, truecolor: boolean): string {
  return halfBlockText(pngCells(png, box), truecolor);
}
