/**
 * Path safety for media downloads. Exercise ids and media names come from the network, so
 * they are never joined into a path as they are: each becomes exactly one harmless path
 * component, and every final path is checked to stay inside the output directory
 * (docs/design.md, "Reliability and security rules").
 */
import { createHash } from 'node:crypto';
import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { MalformedResponseError } from '../errors.js';
import { UNSAFE_CHARS } from '../util/text.js';

/** Longest component we produce, in UTF-8 bytes; leaves room for ".png.part.json" under 255. */
export const MAX_COMPONENT_BYTES = 120;

/** Device names Windows refuses as file names, with or without an extension (CONIN$ and CONOUT$ are consoles too). */
const WINDOWS_RESERVED = /^(con|prn|aux|nul|conin\$|conout\$|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;

/** Separators and the characters Windows forbids in names (controls, bidi and invisible ones: UNSAFE_CHARS). */
const PATH_CHARS = /[/\\<>:"|?*]/g;

/** Cuts a string to at most `maxBytes` UTF-8 bytes without splitting a character (encodeInto stops before one that does not fit). */
function truncateUtf8(value: string, maxBytes: number): string {
  return value.slice(0, new TextEncoder().encodeInto(value, new Uint8Array(maxBytes)).read);
}

/**
 * Turns an untrusted string into a single, safe path component: no separators, no NUL,
 * control, bidi or invisible characters, no leading dots (so never "." / ".." / a hidden file), no trailing dots
 * or spaces, no reserved device name, at most MAX_COMPONENT_BYTES bytes, never empty.
 *
 * Whenever the input had to be changed (Unicode normalisation to NFC included), a short hash of
 * the original is appended, so two distinct inputs ("a/b" and "a_b", "é" and "e" + U+0301) never
 * land on the same file. Clean inputs stay as they are.
 */
export function safeComponent(raw: string): string {
  const cleaned = cleanComponent(raw);
  if (cleaned !== '' && cleaned === raw && Buffer.byteLength(cleaned, 'utf8') <= MAX_COMPONENT_BYTES) return cleaned;
  return withHash(cleaned, raw);
}

/**
 * The safe component of `raw` with a hash suffix always added, for a name that must step aside
 * because another one would be the same file (see collisionKey). `salt` goes into the hash too,
 * for two entries of the same name that are still different files (two URLs, say).
 */
export function distinctComponent(raw: string, salt?: string): string {
  return withHash(cleanComponent(raw), salt === undefined ? raw : `${raw}\n${salt}`);
}

/**
 * The form under which two names are one file on some file system: NFC (macOS normalises
 * names) and case-folded (the default file systems of macOS and Windows ignore case). Two
 * components with the same key must never be used side by side.
 */
export function collisionKey(component: string): string {
  return component.normalize('NFC').toUpperCase().toLowerCase().normalize('NFC');
}

function cleanComponent(raw: string): string {
  let cleaned = raw
    .normalize('NFC')
    .replace(UNSAFE_CHARS, '_')
    .replace(PATH_CHARS, '_')
    .replace(/^[\s.]+/, '') // leading dots and blanks: "..", ".hidden", " x"
    .replace(/[\s.]+$/, ''); // trailing dots and blanks: Windows drops them silently
  if (WINDOWS_RESERVED.test(cleaned)) cleaned = `_${cleaned}`;
  return cleaned;
}

function withHash(cleaned: string, hashed: string): string {
  const suffix = `-${createHash('sha256').update(hashed, 'utf8').digest('hex').slice(0, 8)}`; // a short hash of the original
  const room = MAX_COMPONENT_BYTES - suffix.length;
  const head = truncateUtf8(cleaned, room);
  return `${head === '' ? '_' : head}${suffix}`;
}

/** True when `target` is `dir` itself or lies below it (both resolved, no `..` escape). */
export function isInside(dir: string, target: string): boolean {
  const rel = relative(resolve(dir), resolve(target));
  return rel === '' || (!isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${sep}`));
}

/**
 * Joins sanitised components under `dir` and checks the result stays inside it.
 * Components must already come from safeComponent(); the check is the second line of defence.
 */
export function pathInside(dir: string, ...components: string[]): string {
  const target = resolve(dir, ...components);
  if (!isInside(dir, target) || target === resolve(dir)) {
    throw new MalformedResponseError(`Refusing to write outside the output directory: ${JSON.stringify(components.join('/'))}.`);
  }
  return target;
}

/**
 * After the parent directory exists, checks that its real location (symbolic links followed)
 * is still inside the real output directory, so a planted link cannot redirect a write.
 */
export async function assertRealInside(dir: string, parent: string): Promise<void> {
  const [realDir, realParent] = await Promise.all([realpath(dir), realpath(parent)]);
  if (!isInside(realDir, realParent)) {
    throw new MalformedResponseError(`Refusing to write outside the output directory: ${parent} leads to ${realParent}.`);
  }
}
