/**
 * Terminal display width: East Asian wide characters and emoji take two columns, combining
 * marks none (string-width, loaded with the table code only). Text must already be clean
 * (src/util/text.ts): escape sequences and controls have no width to measure.
 */
import { loadStringWidth } from '../vendor/load.js';

export interface Measure {
  /** Columns the text takes on a terminal. */
  width(text: string): number;
  /** The text cut to at most `max` columns, ending in `…` when cut; never splits a character or cluster. */
  truncate(text: string, max: number): string;
}

/** Printable ASCII and Latin-1/Latin Extended letters without combining marks: one column per code unit. */
const NARROW_ONLY = /^[\u0020-\u007e\u00a0-\u02ff]*$/;

const ELLIPSIS = '…';

export async function loadMeasure(): Promise<Measure> {
  const { default: stringWidth } = await loadStringWidth();
  // string-width segments every string into graphemes; names are nearly always plain Latin,
  // which needs no segmenting (a 100,000-row table measures in milliseconds, not seconds).
  const width = (text: string): number => (NARROW_ONLY.test(text) ? text.length : stringWidth(text));
  let segmenter: Intl.Segmenter | undefined;
  const truncate = (text: string, max: number): string => {
    if (width(text) <= max) return text;
    if (max <= 0) return '';
    const room = max - 1; // the ellipsis takes one column
    if (NARROW_ONLY.test(text)) return text.slice(0, room) + ELLIPSIS;
    segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
    let out = '';
    let used = 0;
    for (const { segment } of segmenter.segment(text)) {
      const w = stringWidth(segment);
      if (used + w > room) break;
      out += segment;
      used += w;
    }
    return out + ELLIPSIS;
  };
  return { width, truncate };
}
