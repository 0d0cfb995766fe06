/** The value of `--images` (show) and `--view` (image): whether to draw, and in which protocol if forced. */
import { UsageError } from '../../errors.js';
import { IMAGE_PROTOCOLS, type ImageProtocol } from '../../output/images/protocol.js';
import { escapeUnsafe } from '../../util/text.js';

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
