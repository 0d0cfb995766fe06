/**
 * What a PNG costs to draw, judged from its header before anything is decoded: a PNG states
 * its width and height in its first chunk (IHDR), and a few bytes may declare 30000×30000, which
 * decoded would take gigabytes (issue 28). A picture over the pixel budget (PICTURE_PIXEL_BUDGET,
 * its decoded bytes too) is refused with the reason; so is an interlaced one whose image data
 * inflates past what its header allows (pngjs inflates interlaced data without a bound). The
 * terminal protocols that get the file as it is (kitty, iTerm2) are held to the same budget:
 * the terminal would decode it.
 */
import { inflateSync } from 'node:zlib';
import { PICTURE_PIXEL_BUDGET } from '../../defaults.js';
import { PNG_SIGNATURE } from '../../catalogue/media.js';

export interface PngHeader {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
  interlaced: boolean;
}

/** Channels per pixel of each PNG colour type (grey, RGB, palette, grey+alpha, RGBA). */
const CHANNELS: Readonly<Record<number, number>> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/** A picture that cannot be drawn; the message completes `Cannot draw <what>: `. */
export class PictureRefusedError extends Error {}

/** The IHDR of `png`; PictureRefusedError when it is not a PNG or its header is broken. */
export function readPngHeader(png: Uint8Array): PngHeader {
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

/** Bytes of the decoded rows, without the filter byte that starts each row in the PNG's data. */
function rowBytes(header: PngHeader): number {
  const bitsPerPixel = CHANNELS[header.colorType]! * header.bitDepth;
  return Math.ceil((header.width * bitsPerPixel) / 8) * header.height;
}

/** The concatenated IDAT chunks of a PNG whose header was read. */
function imageData(png: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let at = PNG_SIGNATURE.length; at + 8 <= png.length; ) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    if (type === 'IDAT') parts.push(png.subarray(at + 8, Math.min(png.length, at + 8 + length)));
    if (type === 'IEND') break;
    at += 12 + length;
  }
  return Buffer.concat(parts);
}

/** Throws PictureRefusedError when `png` is over the budget (see the module comment); its header otherwise. */
export function checkPngBudget(png: Buffer): PngHeader {
  const header = readPngHeader(png);
  const { width, height } = header;
  const pixels = width * height;
  if (pixels > PICTURE_PIXEL_BUDGET) {
    throw new PictureRefusedError(`its header declares ${width}×${height} pixels, over the budget of ${PICTURE_PIXEL_BUDGET / 1e6} megapixels`);
  }
  const decoded = rowBytes(header);
  if (decoded > PICTURE_PIXEL_BUDGET * 4) {
    throw new PictureRefusedError(`${width}×${height} pixels at ${header.bitDepth} bits a channel decode to more than the budget of ${PICTURE_PIXEL_BUDGET / 1e6} megapixels allows`);
  }
  if (header.interlaced) {
    try {
      // Seven passes of the picture: at most a filter byte and a partial byte more per row and pass.
      inflateSync(imageData(png), { maxOutputLength: decoded + 14 * height });
    } catch {
      throw new PictureRefusedError(`its image data does not inflate to the ${width}×${height} pixels its header declares`);
    }
  }
  return header;
}
