/** The two kinds of premium media and what differs between them, one table for the client and the server. */

export type MediaKind = 'image' | 'video';

/** Per kind: the record field listing them, the URL folder (/<folder>/<id>/premium/<name><extension>), the extension, content type and description. */
export const MEDIA = {
  image: { field: 'premiumImages', folder: 'images', extension: '.png', contentType: 'image/png', description: 'a PNG image' },
  video: { field: 'premiumVideos', folder: 'videos', extension: '.mp4', contentType: 'video/mp4', description: 'an MP4 video' },
} as const satisfies Record<MediaKind, Record<'field' | 'folder' | 'extension' | 'contentType' | 'description', string>>;

export type MediaFolder = (typeof MEDIA)[MediaKind]['folder'];

export function kindOfFolder(folder: MediaFolder): MediaKind {
  return folder === 'images' ? 'image' : 'video';
}

/** A media name without its kind's extension, matched case-insensitively: "start.PNG" → "start". */
export function stripExtension(kind: MediaKind, name: string): string {
  const { extension } = MEDIA[kind];
  return name.toLowerCase().endsWith(extension) ? name.slice(0, -extension.length) : name;
}

/** Whether a media entry is an absolute URL of any scheme, so `ftp://…/a.png` is never taken as a bare name. */
export function isAbsoluteUrl(value: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(value);
}

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Bytes needed to judge the magic of either kind. */
export const MAGIC_BYTES = 12;

/** True when the file's first bytes carry the kind's magic. */
export function hasMagic(kind: MediaKind, head: Buffer): boolean {
  if (kind === 'image') return head.length >= PNG_SIGNATURE.length && head.subarray(0, PNG_SIGNATURE.length).equals(PNG_SIGNATURE);
  // ISO base media file: the first box is `ftyp`, its 32-bit size at offset 0 is at least 8.
  return head.length >= 8 && head.readUInt32BE(0) >= 8 && head.toString('latin1', 4, 8) === 'ftyp';
}
