/**
 * A PNG judged from its header before anything is decoded: IHDR states its width and height,
 * and a few bytes may declare 30000×30000, gigabytes decoded. A picture over the pixel budget
 * (PICTURE_PIXEL_BUDGET, its decoded bytes too) is refused with the reason; the protocols that
 * get the file as it is (kitty, iTerm2) are held to it too: the terminal decodes.
 *
 * Within it, a PNG is decoded straight into the half-block cells it is drawn as, never into a
 * whole bitmap: the image data is inflated into one buffer of the size its header implies
 * (refused as soon as it inflates past it), each row is unfiltered in place, and each pixel is
 * added to the cell it falls in. Every colour type and bit depth, Adam7 interlacing, a palette
 * and tRNS transparency are read; translucent pixels are blended over black; a cell's colour is
 * the average of its pixels (fit.ts sizes the grid). Why not a library's decoder: a decompression
 * bomb within the size cap runs it out of memory (docs/performance.md, "Pictures").
 */
import { pipeline } from 'node:stream/promises';
import { createInflate } from 'node:zlib';
import { PICTURE_PIXEL_BUDGET } from '../../defaults.js';
import { PNG_SIGNATURE } from '../../catalogue/media.js';
import { type CellBox, fitCells } from './fit.js';

/** Channels per pixel of each PNG colour type (grey, RGB, palette, grey+alpha, RGBA). */
const CHANNELS: Readonly<Record<number, number>> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/** A picture that cannot be drawn; the message completes `Cannot draw <what>: `. */
export class PictureRefusedError extends Error {}

/** The IHDR of `png`; PictureRefusedError when it is not a PNG or its header is broken. */
function readPngHeader(png: Uint8Array) {
  const bytes = Buffer.from(png.buffer, png.byteOffset, png.byteLength);
  if (bytes.length < 33 || !bytes.subarray(0, PNG_SIGNATURE.length).equals(PNG_SIGNATURE)) throw new PictureRefusedError('not a PNG file');
  if (bytes.readUInt32BE(8) !== 13 || bytes.toString('latin1', 12, 16) !== 'IHDR') throw new PictureRefusedError('a PNG file without its header (IHDR)');
  const header = {
    width: bytes.readUInt32BE(16),
    height: bytes.readUInt32BE(20),
    bitDepth: bytes[24]!,
    colorType: bytes[25]!,
    interlaced: bytes[28] === 1,
  };
  if (header.width === 0 || header.height === 0 || CHANNELS[header.colorType] === undefined || ![1, 2, 4, 8, 16].includes(header.bitDepth)) {
    throw new PictureRefusedError(`a PNG header that declares no drawable picture (${header.width}×${header.height})`);
  }
  return header;
}

type PngHeader = ReturnType<typeof readPngHeader>;

/** Throws PictureRefusedError when `png` is over the budget (see the module comment); its header otherwise. */
export function checkPngBudget(png: Buffer): PngHeader {
  const header = readPngHeader(png);
  const { width, height } = header;
  const pixels = width * height;
  if (pixels > PICTURE_PIXEL_BUDGET) {
    throw new PictureRefusedError(`its header declares ${width}×${height} pixels, over the budget of ${PICTURE_PIXEL_BUDGET / 1e6} megapixels`);
  }
  // Bytes of the decoded rows, without the filter byte that starts each row in the PNG's data.
  const decoded = Math.ceil((width * CHANNELS[header.colorType]! * header.bitDepth) / 8) * height;
  if (decoded > PICTURE_PIXEL_BUDGET * 4) {
    throw new PictureRefusedError(
      `${width}×${height} pixels at ${header.bitDepth} bits a channel decode to more than the budget of ${PICTURE_PIXEL_BUDGET / 1e6} megapixels allows`,
    );
  }
  return header;
}

export type Rgb = Record<'r' | 'g' | 'b', number>;

/** Adam7's seven passes: [x0, y0, dx, dy]; a picture that is not interlaced is one pass of every pixel. */
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;
const WHOLE = [[0, 0, 1, 1]] as const;

/** The passes that hold pixels, each with its size and the bytes of one of its rows. */
function passesOf(header: PngHeader) {
  const bits = CHANNELS[header.colorType]! * header.bitDepth;
  return (header.interlaced ? ADAM7 : WHOLE)
    .map(([x0, y0, dx, dy]) => {
      const width = Math.max(0, Math.ceil((header.width - x0) / dx));
      const height = Math.max(0, Math.ceil((header.height - y0) / dy));
      return { x0, y0, dx, dy, width, height, rowBytes: Math.ceil((width * bits) / 8) };
    })
    .filter((p) => p.width > 0 && p.height > 0);
}

/** The chunks the pixels need: the palette, its transparency, and the image data (the IDAT bodies in order). */
function chunksOf(png: Buffer) {
  const parts: Buffer[] = [];
  let palette: Buffer | undefined;
  let transparency: Buffer | undefined;
  for (let at = PNG_SIGNATURE.length; at + 8 <= png.length;) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const body = png.subarray(at + 8, Math.min(png.length, at + 8 + length));
    if (type === 'IDAT') parts.push(body);
    else if (type === 'PLTE') palette = body;
    else if (type === 'tRNS') transparency = body;
    else if (type === 'IEND') break;
    at += 12 + length;
  }
  return { palette, transparency, data: parts };
}

/**
 * The image data inflated into one buffer of the `expected` bytes, read from its IDAT chunks in
 * turn (never joined into a copy of them); refused, with `refusal`, when it is no zlib stream or
 * as soon as it inflates past them: a stream of zeros inflates a thousandfold.
 */
async function inflateRows(parts: Buffer[], expected: number, refusal: string): Promise<Buffer> {
  const rows = Buffer.alloc(expected);
  let filled = 0;
  try {
    await pipeline(parts, createInflate(), async (pieces: AsyncIterable<Buffer>) => {
      for await (const piece of pieces) {
        if (filled + piece.length > expected) throw new PictureRefusedError(refusal);
        piece.copy(rows, filled);
        filled += piece.length;
      }
    });
  } catch {
    throw new PictureRefusedError(refusal);
  }
  if (filled < expected) throw new PictureRefusedError('its image data is cut short');
  return rows;
}

/**
 * Undoes a row's filter in place (PNG §9): `prior` is the row above in the same pass (zeros for
 * the first). The bytes before the first whole pixel have no left neighbour, hence two loops.
 */
function unfilter(filter: number, row: Buffer, prior: Buffer, bpp: number): void {
  const n = row.length;
  switch (filter) {
    case 0:
      return;
    case 1:
      for (let i = bpp; i < n; i++) row[i] = (row[i]! + row[i - bpp]!) & 255;
      return;
    case 2:
      for (let i = 0; i < n; i++) row[i] = (row[i]! + prior[i]!) & 255;
      return;
    case 3:
      for (let i = 0; i < bpp && i < n; i++) row[i] = (row[i]! + (prior[i]! >> 1)) & 255;
      for (let i = bpp; i < n; i++) row[i] = (row[i]! + ((row[i - bpp]! + prior[i]!) >> 1)) & 255;
      return;
    case 4:
      for (let i = 0; i < bpp && i < n; i++) row[i] = (row[i]! + prior[i]!) & 255;
      for (let i = bpp; i < n; i++) {
        const a = row[i - bpp]!;
        const b = prior[i]!;
        const c = prior[i - bpp]!;
        const pa = Math.abs(b - c);
        const pb = Math.abs(a - c);
        const pc = Math.abs(a + b - 2 * c);
        row[i] = (row[i]! + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c)) & 255;
      }
      return;
    default:
      throw new PictureRefusedError(`a row has the unknown filter type ${filter}`);
  }
}

/** Sample `index` of a row of `depth`-bit samples, packed from the high bits. */
function sampleAt(row: Buffer, index: number, depth: number): number {
  if (depth === 8) return row[index]!;
  if (depth === 16) return (row[2 * index]! << 8) | row[2 * index + 1]!;
  const bit = index * depth;
  return (row[bit >> 3]! >> (8 - depth - (bit & 7))) & ((1 << depth) - 1);
}

/** For each pixel index along a side of `size` pixels, its cell among `cells` (each cell a run of whole pixels). */
function cellIndex(size: number, cells: number): Uint32Array {
  const map = new Uint32Array(size);
  for (let p = 0; p < size; p++) map[p] = Math.ceil(((p + 1) * cells) / size) - 1;
  return map;
}

/**
 * The PNG's pixels averaged into the cells that fit `box`, rows in pairs: [upper, lower] colours per
 * cell. Whatever else a damaged file makes go wrong is refused in the same words, never Node's.
 */
export async function pngCells(png: Buffer, box: CellBox): Promise<Rgb[][][]> {
  return decodeCells(png, box).catch((err: unknown) => {
    throw err instanceof PictureRefusedError ? err : new PictureRefusedError('its chunks are damaged');
  });
}

async function decodeCells(png: Buffer, box: CellBox): Promise<Rgb[][][]> {
  const header = checkPngBudget(png);
  const { width, height, bitDepth: depth, colorType } = header;
  const { columns, pixelRows } = fitCells(width, height, box);
  const passes = passesOf(header);
  const expected = passes.reduce((n, p) => n + (p.rowBytes + 1) * p.height, 0);
  const { palette, transparency, data } = chunksOf(png);
  const inflated = await inflateRows(data, expected, `its image data does not inflate to the ${width}×${height} pixels its header declares`);
  if (colorType === 3 && palette === undefined) throw new PictureRefusedError('a palette picture without its palette (PLTE)');

  const channels = CHANNELS[colorType]!;
  const bpp = Math.max(1, (channels * depth) >> 3);
  const max = (1 << depth) - 1;
  const scale = (v: number): number => (depth === 8 ? v : Math.round((v * 255) / max));
  // tRNS: one transparent grey or RGB value (in the picture's own depth), or the palette's alphas.
  if (transparency && (colorType === 0 || colorType === 2) && transparency.length < (colorType === 0 ? 2 : 6))
    throw new PictureRefusedError('its transparency chunk (tRNS) is too short for its colour type');
  const key =
    transparency && (colorType === 0 || colorType === 2) ? [0, 2, 4].slice(0, colorType === 0 ? 1 : 3).map((o) => transparency.readUInt16BE(o)) : undefined;

  const xCell = cellIndex(width, columns);
  const yCell = cellIndex(height, pixelRows);
  const sums = new Float64Array(columns * pixelRows * 3);
  const counts = new Uint32Array(columns * pixelRows);
  const rgba = [0, 0, 0, 255];
  /** Adds a pixel to its cell, its colour weighted by its opacity (0–1): translucent pixels blend over black. */
  const add = (cell: number, r: number, g: number, b: number, alpha: number): void => {
    sums[3 * cell] = sums[3 * cell]! + r * alpha;
    sums[3 * cell + 1] = sums[3 * cell + 1]! + g * alpha;
    sums[3 * cell + 2] = sums[3 * cell + 2]! + b * alpha;
    counts[cell] = counts[cell]! + 1;
  };
  let at = 0;
  for (const pass of passes) {
    let prior: Buffer = Buffer.alloc(pass.rowBytes);
    for (let py = 0; py < pass.height; py++) {
      const filter = inflated[at]!;
      const row = inflated.subarray(at + 1, at + 1 + pass.rowBytes);
      at += pass.rowBytes + 1;
      unfilter(filter, row, prior, bpp);
      prior = row;
      const cellRow = yCell[pass.y0 + py * pass.dy]! * columns;
      const x0 = pass.x0;
      const dx = pass.dx;
      if (depth === 8 && channels >= 3 && !key) {
        // The common case (8-bit RGB or RGBA), read straight from the row.
        for (let px = 0, i = 0; px < pass.width; px++, i += channels) {
          add(cellRow + xCell[x0 + px * dx]!, row[i]!, row[i + 1]!, row[i + 2]!, channels === 4 ? row[i + 3]! / 255 : 1);
        }
        continue;
      }
      for (let px = 0; px < pass.width; px++) {
        if (colorType === 3) {
          const index = sampleAt(row, px, depth);
          rgba[0] = palette![3 * index] ?? 0;
          rgba[1] = palette![3 * index + 1] ?? 0;
          rgba[2] = palette![3 * index + 2] ?? 0;
          rgba[3] = transparency?.[index] ?? 255;
        } else {
          const first = px * channels;
          const grey = colorType === 0 || colorType === 4;
          const raw0 = sampleAt(row, first, depth);
          const raw1 = grey ? raw0 : sampleAt(row, first + 1, depth);
          const raw2 = grey ? raw0 : sampleAt(row, first + 2, depth);
          rgba[0] = scale(raw0);
          rgba[1] = scale(raw1);
          rgba[2] = scale(raw2);
          rgba[3] = colorType === 4 || colorType === 6 ? scale(sampleAt(row, first + channels - 1, depth)) : 255;
          if (key && raw0 === key[0] && (grey || (raw1 === key[1] && raw2 === key[2]))) rgba[3] = 0;
        }
        add(cellRow + xCell[x0 + px * dx]!, rgba[0], rgba[1], rgba[2], rgba[3] / 255);
      }
    }
  }

  const colour = (y: number, x: number): Rgb => {
    const cell = y * columns + x;
    const n = y < pixelRows ? counts[cell]! : 0; // the lower half of an odd last row: black
    if (n === 0) return { r: 0, g: 0, b: 0 };
    return { r: Math.round(sums[3 * cell]! / n), g: Math.round(sums[3 * cell + 1]! / n), b: Math.round(sums[3 * cell + 2]! / n) };
  };
  const rows: Rgb[][][] = [];
  for (let cy = 0; cy < Math.ceil(pixelRows / 2); cy++) {
    const row: Rgb[][] = [];
    for (let x = 0; x < columns; x++) row.push([colour(2 * cy, x), colour(2 * cy + 1, x)]);
    rows.push(row);
  }
  return rows;
}
