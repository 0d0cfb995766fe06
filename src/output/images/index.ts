/**
 * Draws a PNG at the terminal in the protocol chosen (protocol.ts): the kitty and iTerm2
 * protocols get the file's bytes as they are, any other colour terminal half blocks. The
 * caller has made sure stdout is a terminal: none of this is ever written to a pipe.
 */
import type { ImageProtocol } from './protocol.js';
import { itermSequence, kittySequence } from './escape-protocols.js';
import { halfBlocks } from './blocks.js';

export { type ImageProtocol, detectImageProtocol } from './protocol.js';

export async function inlineImage(png: Buffer, protocol: ImageProtocol, options: { columns: number; truecolor: boolean }): Promise<string> {
  if (protocol === 'kitty') return kittySequence(png);
  if (protocol === 'iterm') return itermSequence(png);
  return halfBlocks(png, options.columns, options.truecolor);
}
