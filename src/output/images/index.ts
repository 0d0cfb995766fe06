/**
 * Draws a PNG at the terminal in the protocol chosen (protocol.ts): the kitty and iTerm2
 * protocols get the file's bytes as they are, any other colour terminal half blocks. Whichever
 * way, the picture is first held to the budget (png-budget.ts: PictureRefusedError, nothing
 * decoded) and fitted into the box it is given (fit.ts). The caller has made sure stdout is a
 * terminal: none of this is ever written to a pipe.
 */
import type { ImageProtocol } from './protocol.js';
import { itermSequence, kittySequence } from './escape-protocols.js';
import { halfBlocks } from './blocks.js';
import { type CellBox, fitCells } from './fit.js';
import { checkPngBudget } from './png-budget.js';

export { type ImageProtocol, detectImageProtocol } from './protocol.js';
export { type CellBox } from './fit.js';
export { PictureRefusedError } from './png-budget.js';

export async function inlineImage(png: Buffer, protocol: ImageProtocol, options: { box: CellBox; truecolor: boolean }): Promise<string> {
  const { width, height } = checkPngBudget(png);
  if (protocol === 'blocks') return halfBlocks(png, options.box, options.truecolor);
  const cells = fitCells(width, height, options.box);
  return protocol === 'kitty' ? kittySequence(png, cells) : itermSequence(png, cells);
}
