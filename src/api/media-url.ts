/**
 * URL of a premiumImages/premiumVideos entry: a bare name (".png"/".mp4" stripped) becomes
 * the spec path with percent-encoded segments; an absolute URL (of any scheme, as
 * media-names.ts sees it too) is taken as it is, and a path is resolved against the base
 * URL (the transport sends the key only to the base origin).
 * The id and the entry come from the network: one that no URL can carry is a
 * MalformedResponseError (callers decide whether to skip that entry), never a UsageError.
 */
import { MalformedResponseError } from '../errors.js';
import { MEDIA, type MediaKind, isAbsoluteUrl, stripExtension } from '../catalogue/media.js';
import { resolveUrl } from '../http/resolve-url.js';
import { isDotSegment, pathSegment } from './paths.js';

export function mediaUrl(baseUrl: URL, kind: MediaKind, exerciseId: string, entry: string): URL {
  const { folder, extension } = MEDIA[kind];
  if (isAbsoluteUrl(entry)) {
    // Only http(s) can be fetched: any other scheme, or no URL at all, is malformed data.
    const url = URL.canParse(entry) ? new URL(entry) : undefined;
    if (url?.protocol === 'http:' || url?.protocol === 'https:') return url;
    throw new MalformedResponseError(`The media URL ${JSON.stringify(entry.slice(0, 200))} is not an http or https URL.`, { details: { entry } });
  }
  if (entry.startsWith('/')) return resolveUrl(baseUrl, entry);
  if (isDotSegment(exerciseId)) {
    throw new MalformedResponseError(`The exercise id "${exerciseId}" cannot be sent in a media URL (URL normalisation removes it).`, {
      details: { exercise: exerciseId, entry },
    });
  }
  const file = `${stripExtension(kind, entry)}${extension}`;
  return resolveUrl(baseUrl, `/${folder}/${pathSegment(exerciseId)}/premium/${pathSegment(file)}`);
}
