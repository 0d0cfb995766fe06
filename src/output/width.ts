/** Terminal display width (wide characters two columns, combining marks none); the text must already be clean. */
import { loadStringWidth } from '../vendor/load.js';

export interface Measure {
  width(text: string): number;
  /** Cut to at most `max` columns, ending in `…`; never splits a cluster. */
  truncate(text: string, max: number): string;
}

/** Plain Latin without combining marks: one column per code unit. */
const NARROW_ONLY = /^[\u0020-\u007e\u00a0-\u02ff]*$/;

const ELLIPSIS = '…';

export async function loadMeasure(): Promise<Measure> {
  const { default: stringWidth } = await loadStringWidth();
  // Names are nearly always plain Latin, which needs no grapheme segmenting.
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
