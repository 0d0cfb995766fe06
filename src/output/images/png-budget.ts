/**
 * What a PNG costs to draw, judged from its header before anything is decoded: a PNG states
 * its width and height in its first chunk (IHDR), and a few bytes may declare 30000×30000, which
 * decoded would take gigabytes (issue 28). A picture over the pixel budget (PICTURE_PIXEL_BUDGET,
 * its decoded bytes too) is refused with the reason, and a picture's data is never inflated past
 * what its header allows (png-cells.ts). The terminal protocols that get the file as it is (kitty, iTerm2) are held to the same budget:
 * the terminal would decode it.
 */
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

/** Samples per pixel of the header's colour type. */
export function channelsOf(header: Pick<PngHeader, 'colorType'>): number {
  return CHANNELS[header.colorType]!;
}

/** Bytes of the decoded rows, without the filter byte that starts each row in the PNG's data. */
function rowBytes(header: PngHeader): number {
  return Math.ceil((header.width * channelsOf(header) * header.bitDepth) / 8) * header.height;
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
    throw new PictureRefusedError(
      `${width}×${height} pixels at ${header.bitDepth} bits a channel decode to more than the budget of ${PICTURE_PIXEL_BUDGET / 1e6} megapixels allows`,
    );
  }
  return header;
}
