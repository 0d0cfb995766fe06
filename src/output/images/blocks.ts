/**
 * A PNG drawn with half blocks: each character cell shows two pixels, the upper as the
 * foreground colour of `▀` and the lower as its background, so a terminal with colour but
 * no image protocol still shows the picture. The PNG is decoded by pngjs (loaded only here,
 * and only for a picture within the budget: png-budget.ts), scaled down to fit its box by
 * averaging each cell's source pixels (never up: fit.ts), and
 * translucent pixels are blended over black. Truecolour escapes where the terminal takes
 * them, else the nearest of the 256-colour palette.
 */
import { loadPngjs } from '../../vendor/pngjs.js';
import { type CellBox, fitCells } from './fit.js';

export interface Rgb {
  r: number;
  g: number;
  b: number;
}

/** Decoded pixels, RGBA, row by row. */
export interface Bitmap {
  width: number;
  height: number;
  data: Uint8Array;
}

export async function decodePng(png: Buffer): Promise<Bitmap> {
  const { PNG } = await loadPngjs();
  const image = PNG.sync.read(png);
  return { width: image.width, height: image.height, data: image.data };
}

/** The average colour of the source box [x0,x1)×[y0,y1), blended over black. */
function average(bitmap: Bitmap, x0: number, x1: number, y0: number, y1: number): Rgb {
  let r = 0;
  let g = 0;
  let b = 0;
  let n = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const i = (y * bitmap.width + x) * 4;
      const a = bitmap.data[i + 3]! / 255;
      r += bitmap.data[i]! * a;
      g += bitmap.data[i + 1]! * a;
      b += bitmap.data[i + 2]! * a;
      n++;
    }
  }
  return n === 0 ? { r: 0, g: 0, b: 0 } : { r: Math.round(r / n), g: Math.round(g / n), b: Math.round(b / n) };
}

/** The bitmap scaled to fit `box` (never up), rows in pairs: [upper, lower] colours per cell. */
export function halfBlockCells(bitmap: Bitmap, box: CellBox): Rgb[][][] {
  // A cell holds two pixel rows, so pixels stay square.
  const { columns: width, pixelRows: height } = fitCells(bitmap.width, bitmap.height, box);
  const rows: Rgb[][][] = [];
  const span = (i: number, n: number, of: number): [number, number] => {
    const from = Math.floor((i * of) / n);
    return [from, Math.max(from + 1, Math.floor(((i + 1) * of) / n))];
  };
  for (let cy = 0; cy < Math.ceil(height / 2); cy++) {
    const row: Rgb[][] = [];
    for (let x = 0; x < width; x++) {
      const [x0, x1] = span(x, width, bitmap.width);
      const pair = [2 * cy, 2 * cy + 1].map((py) => {
        if (py >= height) return { r: 0, g: 0, b: 0 };
        const [y0, y1] = span(py, height, bitmap.height);
        return average(bitmap, x0, x1, y0, y1);
      });
      row.push(pair);
    }
    rows.push(row);
  }
  return rows;
}

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
export async function halfBlocks(png: Buffer, box: CellBox, truecolor: boolean): Promise<string> {
  return halfBlockText(halfBlockCells(await decodePng(png), box), truecolor);
}
