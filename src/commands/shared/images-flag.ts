/** The values of `--images` (show) and `--view` (image): whether to draw, and in which protocol if forced; and `--size`. */
import { UsageError } from '../../errors.js';
import { IMAGE_PROTOCOLS, type ImageProtocol } from '../../output/images/protocol.js';
import { escapeUnsafe } from '../../util/text.js';
import type { CellBox } from '../../output/images/fit.js';

/** `--images` alone (true) or `--images=kitty|iterm|blocks`: the protocol forced, if any. */
export function imagesFlag(value: unknown, flag: string): { protocol?: ImageProtocol } | undefined {
  if (value === undefined || value === false) return undefined;
  if (value === true) return {};
  if (typeof value === 'string' && (IMAGE_PROTOCOLS as readonly string[]).includes(value)) return { protocol: value as ImageProtocol };
  throw new UsageError(
    `${flag} takes ${IMAGE_PROTOCOLS.join(', ')} or nothing (the terminal's own way is found from its environment), not "${escapeUnsafe(typeof value === 'string' ? value : JSON.stringify(value))}".`,
  );
}

/**
 * `--images Plank` (the flag before the id, with a space): commander reads the id as the
 * flag's value. A value that is no protocol, and was not written `--images=<value>`, is given
 * back as a positional argument.
 */
export function splitImagesValue(value: unknown, flag: string, argv: readonly string[]): { flag: unknown; positional?: string } {
  if (typeof value !== 'string' || (IMAGE_PROTOCOLS as readonly string[]).includes(value) || argv.includes(`${flag}=${value}`)) return { flag: value };
  return { flag: true, positional: value };
}

/** The largest `--size` side, in cells: far past any terminal, short of an accident. */
const SIZE_MAX_CELLS = 1000;

/** `--size WxH` (with `--images`/`--view`): the cells each picture may take, instead of the terminal's size. */
export function sizeFlag(value: unknown, drawFlag: string, drawing: boolean): CellBox | undefined {
  if (value === undefined) return undefined;
  if (!drawing) throw new UsageError(`--size goes with ${drawFlag}: it is the size pictures are drawn at.`);
  const match = typeof value === 'string' ? /^(\d{1,4})[x×](\d{1,4})$/i.exec(value.trim()) : null;
  const [columns, rows] = match ? [Number(match[1]), Number(match[2])] : [0, 0];
  if (columns < 1 || rows < 1 || columns > SIZE_MAX_CELLS || rows > SIZE_MAX_CELLS) {
    throw new UsageError(
      `--size takes columns x lines, each from 1 to ${SIZE_MAX_CELLS} (such as 40x12), not "${escapeUnsafe(typeof value === 'string' ? value : JSON.stringify(value))}".`,
    );
  }
  return { columns, rows };
}
