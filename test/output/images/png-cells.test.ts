/**
 * The PNG decoder behind half blocks, format by format: every colour type at every bit depth it
 * allows, plain and Adam7-interlaced, a palette with tRNS alphas, a tRNS colour key, 16-bit
 * samples, pixels averaged into a cell; and a broken PNG refused with one plain line. Each
 * picture is small enough to draw one pixel a cell, so the cells are its pixels, compared with
 * the colours the PNG specification gives them (samples scaled to 0–255, alpha blended over black).
 */
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { PictureRefusedError, pngCells } from '../../../src/output/images/png-cells.js';
import { type PngHeader, pngWith, writePng } from '../../helpers/png-writer.js';

const ROOMY = { columns: 80, rows: 24 };

/** The pixels a picture is drawn as, row by row, each "r,g,b" (the cells' upper and lower halves in turn). */
async function drawnPixels(png: Buffer, height: number, box = ROOMY): Promise<string[][]> {
  const lines = await pngCells(png, box);
  const rows: string[][] = [];
  for (const line of lines) for (const half of [0, 1]) rows.push(line.map((cell) => `${cell[half]!.r},${cell[half]!.g},${cell[half]!.b}`));
  return rows.slice(0, height);
}

const SIDE = 9; // odd, so every Adam7 pass is there and the last ones are cut short

/** A sample of channel `c` at (x, y) for a `depth`-bit picture: a hash of them, so that no Adam7 pass is all alike. */
const sampleAt = (x: number, y: number, c: number, depth: number) => (Math.imul(x * 31 + y * 17 + c * 7 + 1, 2654435761) >>> 13) % 2 ** depth;

/** Pixels of `channels` samples each, SIDE × SIDE. */
const samplesOf = (channels: number, depth: number) =>
  Array.from({ length: SIDE }, (_, y) => Array.from({ length: SIDE }, (_, x) => Array.from({ length: channels }, (_, c) => sampleAt(x, y, c, depth))));

const scale = (v: number, depth: number) => Math.round((v * 255) / (2 ** depth - 1));
/** A colour (0–255 a channel) with an alpha (0–255) over black, as a one-pixel cell shows it. */
const over = (rgb: number[], alpha: number) => rgb.map((v) => Math.round((v * alpha) / 255)).join(',');

/** The colour the specification gives a pixel of colour type 0, 2, 4 or 6. */
function expectedColour(colorType: number, depth: number, s: number[]): string {
  const v = s.map((x) => scale(x, depth));
  if (colorType === 0) return over([v[0]!, v[0]!, v[0]!], 255);
  if (colorType === 2) return over(v, 255);
  if (colorType === 4) return over([v[0]!, v[0]!, v[0]!], v[1]!);
  return over(v.slice(0, 3), v[3]!);
}

const DIRECT: [string, number, number, number[]][] = [
  ['grey', 0, 1, [1, 2, 4, 8, 16]],
  ['RGB', 2, 3, [8, 16]],
  ['grey and alpha', 4, 2, [8, 16]],
  ['RGBA', 6, 4, [8, 16]],
];

describe('every colour type and bit depth, plain and interlaced', () => {
  for (const [name, colorType, channels, depths] of DIRECT) {
    for (const depth of depths) {
      it(`${name} at ${depth} bits`, async () => {
        const pixels = samplesOf(channels, depth);
        const expected = pixels.map((row) => row.map((s) => expectedColour(colorType, depth, s)));
        for (const interlaced of [false, true]) {
          const png = writePng({ width: SIDE, height: SIDE, depth, colorType, interlaced }, pixels);
          expect(await drawnPixels(png, SIDE), interlaced ? 'interlaced' : 'plain').toEqual(expected);
        }
      });
    }
  }
});

describe('a palette', () => {
  /** A palette of `2^depth` entries, each a colour of its own. */
  const paletteOf = (depth: number) => Array.from({ length: 2 ** depth }, (_, i) => [(i * 37) % 256, (i * 91 + 20) % 256, (200 + i * 13) % 256]);

  for (const depth of [1, 2, 4, 8]) {
    it(`at ${depth} bits, with tRNS alphas for its first entries (the rest opaque), plain and interlaced`, async () => {
      const palette = paletteOf(depth);
      const alphas = palette.slice(0, Math.max(1, palette.length - 1)).map((_, i) => [0, 128, 255][i % 3]!);
      const pixels = samplesOf(1, depth);
      const expected = pixels.map((row) => row.map(([index]) => over(palette[index!]!, alphas[index!] ?? 255)));
      const chunks: [string, Buffer][] = [
        ['PLTE', Buffer.from(palette.flat())],
        ['tRNS', Buffer.from(alphas)],
      ];
      for (const interlaced of [false, true]) {
        const png = writePng({ width: SIDE, height: SIDE, depth, colorType: 3, interlaced }, pixels, chunks);
        expect(await drawnPixels(png, SIDE), interlaced ? 'interlaced' : 'plain').toEqual(expected);
      }
    });
  }

  it('an index past the palette is drawn black, not an error', async () => {
    const png = writePng({ width: 2, height: 1, depth: 8, colorType: 3 }, [[[0], [5]]], [['PLTE', Buffer.from([10, 20, 30])]]);
    expect(await drawnPixels(png, 1)).toEqual([['10,20,30', '0,0,0']]);
  });
});

describe('a tRNS colour key', () => {
  it('RGB at 16 bits: the one colour that matches the key exactly is transparent (black)', async () => {
    const key = [0x1234, 0x5678, 0x9abc];
    const png = writePng(
      { width: 3, height: 1, depth: 16, colorType: 2 },
      [[key, [0x1234, 0x5678, 0x9abd], [0xffff, 0x8000, 0]]],
      [['tRNS', Buffer.from(key.flatMap((v) => [v >> 8, v & 255]))]],
    );
    expect(await drawnPixels(png, 1)).toEqual([['0,0,0', '18,86,154', '255,128,0']]);
  });

  it('grey at 2 bits: the key is compared in the picture’s own depth', async () => {
    const png = writePng({ width: 4, height: 1, depth: 2, colorType: 0 }, [[[0], [1], [2], [3]]], [['tRNS', Buffer.from([0, 2])]]);
    expect(await drawnPixels(png, 1)).toEqual([['0,0,0', '85,85,85', '0,0,0', '255,255,255']]);
  });
});

describe('pixels averaged into a cell', () => {
  it('a 4×4 picture in a box of 2 columns: each cell the average of its 2×2 pixels', async () => {
    const rgb = (y: number, x: number) => [x * 60 + y, 100, y * 50];
    const pixels = Array.from({ length: 4 }, (_, y) => Array.from({ length: 4 }, (_, x) => rgb(y, x)));
    const png = writePng({ width: 4, height: 4 }, pixels);
    const mean = (y: number, x: number) =>
      [0, 1, 2].map((c) => Math.round([rgb(y, x), rgb(y, x + 1), rgb(y + 1, x), rgb(y + 1, x + 1)].reduce((n, p) => n + p[c]!, 0) / 4)).join(',');
    expect(await drawnPixels(png, 2, { columns: 2, rows: 1 })).toEqual([
      [mean(0, 0), mean(0, 2)],
      [mean(2, 0), mean(2, 2)],
    ]);
  });
});

describe('a broken PNG is refused with one plain line', () => {
  const header: PngHeader = { width: 4, height: 2 };
  const good = writePng(
    header,
    Array.from({ length: 2 }, () => Array.from({ length: 4 }, () => [1, 2, 3])),
  );
  const rows = (bytes: number) => Buffer.alloc(bytes); // filter 0 and black pixels
  const black = Array.from({ length: 2 }, () => Array.from({ length: 4 }, () => [0, 0, 0]));
  const grey = black.map((row) => row.map(() => [0]));

  it.each<[string, Buffer, string]>([
    ['not a PNG', Buffer.from('GIF89a, not a PNG at all, but long enough to read'), 'not a PNG file'],
    ['cut inside its image data', good.subarray(0, good.length - 20), 'its image data does not inflate to the 4×2 pixels its header declares'],
    [
      'image data that is no zlib stream',
      pngWith(header, Buffer.from('plain text, no zlib')),
      'its image data does not inflate to the 4×2 pixels its header declares',
    ],
    [
      'no image data at all',
      Buffer.concat([good.subarray(0, 33), good.subarray(good.length - 12)]),
      'its image data does not inflate to the 4×2 pixels its header declares',
    ],
    ['a whole zlib stream of too few rows', pngWith(header, deflateSync(rows(13))), 'its image data is cut short'],
    ['more rows than its header declares', pngWith(header, deflateSync(rows(27))), 'its image data does not inflate to the 4×2 pixels its header declares'],
    ['a row with an unknown filter type', writePng(header, black, [], 7), 'a row has the unknown filter type 7'],
    [
      'a palette picture without PLTE',
      writePng(
        { ...header, colorType: 3 },
        black.map((row) => row.map(() => [0])),
      ),
      'a palette picture without its palette (PLTE)',
    ],
    ['a header of 0 pixels', pngWith({ width: 0, height: 2 }, deflateSync(rows(2))), 'a PNG header that declares no drawable picture (0×2)'],
    ['an unknown colour type', pngWith({ ...header, colorType: 5 }, deflateSync(rows(26))), 'a PNG header that declares no drawable picture (4×2)'],
    [
      'a grey colour key of one byte',
      writePng({ ...header, colorType: 0 }, grey, [['tRNS', Buffer.from([1])]]),
      'its transparency chunk (tRNS) is too short for its colour type',
    ],
    [
      'an RGB colour key of two bytes',
      writePng(header, black, [['tRNS', Buffer.from([0, 1])]]),
      'its transparency chunk (tRNS) is too short for its colour type',
    ],
  ])('%s', async (_name, png, message) => {
    const refusal = await pngCells(png, ROOMY).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(refusal).toBeInstanceOf(PictureRefusedError);
    expect((refusal as Error).message).toBe(message);
  });
});
