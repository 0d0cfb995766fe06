/** A record's media entries (a name, "start.png", a URL or a path) → the local file name. */
import { MEDIA, type MediaKind, isAbsoluteUrl, stripExtension } from '../catalogue/media.js';
import { safeComponent } from './safe-path.js';

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment; // a stray "%" is part of the name, not an encoding
  }
}

/** The bare media name of an entry: last segment of a URL or path, extension of its kind stripped. */
export function mediaName(kind: MediaKind, entry: string): string {
  // An absolute URL that does not parse is not a URL after all: the entry is the name.
  const url = isAbsoluteUrl(entry) && URL.canParse(entry) ? new URL(entry) : undefined;
  const path = url ? url.pathname : entry.startsWith('/') ? (entry.split(/[?#]/, 1)[0] ?? '') : undefined;
  return stripExtension(kind, path === undefined ? entry : decodeSegment(path.slice(path.lastIndexOf('/') + 1)));
}

export function mediaFileName(kind: MediaKind, entry: string): string {
  return `${safeComponent(mediaName(kind, entry))}${MEDIA[kind].extension}`;
}

export type MediaLists = { premiumImages?: unknown; premiumVideos?: unknown };

/** A record's entries for the kinds asked, without repeats ("start" and "start.png" are one; URLs only by their text). */
export function mediaEntries(record: MediaLists, kinds: readonly MediaKind[]): Array<{ kind: MediaKind; entry: string }> {
  const out: Array<{ kind: MediaKind; entry: string }> = [];
  for (const kind of kinds) {
    const list = record[MEDIA[kind].field];
    if (!Array.isArray(list)) continue;
    const seen = new Set<string>();
    for (const entry of list) {
      if (typeof entry !== 'string' || entry.trim() === '') continue;
      const key = isAbsoluteUrl(entry) || entry.startsWith('/') ? entry : mediaFileName(kind, entry);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ kind, entry });
    }
  }
  return out;
}

/** Whether a record or summary carries the premium fields at all (a free plan's records do not). */
export function hasMediaFields(record: MediaLists, kinds: readonly MediaKind[]): boolean {
  return kinds.some((kind) => Array.isArray(record[MEDIA[kind].field]));
}
