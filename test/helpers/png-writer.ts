/**
 * PNGs written byte by byte for the picture tests: any colour type and bit depth, Adam7
 * interlacing, a palette and tRNS, and image data of the test's choosing (a bomb, a broken
 * stream), which no encoder library writes.
 */
import { crc32, deflateSync } from 'node:zlib';
import { PNG_SIGNATURE } from '../../src/catalogue/media.js';

/** One chunk: its length, type, body and CRC. */
export function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(data, crc32(head.subarray(4))) >>> 0);
  return Buffer.concat([head, data, crc]);
}

export interface PngHeader {
  width: number;
  height: number;
  /** Bits a sample: 1, 2, 4, 8 (the default) or 16. */
  depth?: number;
  /** 0 grey, 2 RGB (the default), 3 palette, 4 grey and alpha, 6 RGBA. */
  colorType?: number;
  interlaced?: boolean;
}

/** A PNG of `header` whose IDAT holds `idat` as it is, after `chunks` (PLTE, tRNS…). */
export function pngWith(header: PngHeader, idat: Buffer, chunks: [string, Buffer][] = []): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(header.width, 0);
  ihdr.writeUInt32BE(header.height, 4);
  ihdr[8] = header.depth ?? 8;
  ihdr[9] = header.colorType ?? 2;
  ihdr[12] = header.interlaced ? 1 : 0;
  const body = chunks.map(([type, data]) => chunk(type, data));
  return Buffer.concat([PNG_SIGNATURE, chunk('IHDR', ihdr), ...body, chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))]);
}

/** Adam7's seven passes: [x0, y0, dx, dy] (PNG §8.2), written out here rather than taken from the decoder the tests check. */
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

/**
 * A PNG of `header` holding `pixels` (rows of pixels, each its samples at the header's depth:
 * a palette index for colour type 3), every row with filter `filter` (0, None, by default; the
 * bytes are written as they are, whatever the filter says).
 */
export function writePng(header: PngHeader, pixels: number[][][], chunks: [string, Buffer][] = [], filter = 0): Buffer {
  const depth = header.depth ?? 8;
  const rows: Buffer[] = [];
  for (const [x0, y0, dx, dy] of header.interlaced ? ADAM7 : [[0, 0, 1, 1] as const]) {
    for (let y = y0; y < header.height; y += dy) {
      const samples: number[] = [];
      for (let x = x0; x < header.width; x += dx) samples.push(...pixels[y]![x]!);
      if (samples.length === 0) continue;
      const row = Buffer.alloc(1 + Math.ceil((samples.length * depth) / 8));
      row[0] = filter;
      samples.forEach((sample, i) => {
        if (depth === 16) row.writeUInt16BE(sample, 1 + 2 * i);
        else {
          const at = 1 + ((i * depth) >> 3); // samples packed from the high bits of each byte
          row[at] = row[at]! | (sample << (8 - depth - ((i * depth) & 7)));
        }
      });
      rows.push(row);
    }
  }
  return pngWith(header, deflateSync(Buffer.concat(rows)), chunks);
}
