/**
 * Path safety for media downloads: ids and media names come from the network, so each becomes exactly one
 * harmless path component, and every final path is checked to stay inside the output directory.
 */
import { createHash } from 'node:crypto';
import { realpath } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { MalformedResponseError } from '../errors.js';
import { UNSAFE_CHARS } from '../util/text.js';

/** Longest component we produce, in UTF-8 bytes; leaves room for ".png.part.json" under 255. */
export const MAX_COMPONENT_BYTES = 120;

/** Device names Windows refuses as file names, with or without an extension (CONIN$ and CONOUT$ are consoles too). */
const WINDOWS_RESERVED = /^(con|prn|aux|nul|conin\$|conout\$|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;

/** Separators and the characters Windows forbids in names (controls, bidi and invisible ones: UNSAFE_CHARS). */
const PATH_CHARS = /[/\\<>:"|?*]/g;

/** Cuts a string to at most `maxBytes` UTF-8 bytes without splitting a character. */
function truncateUtf8(value: string, maxBytes: number): string {
  return value.slice(0, new TextEncoder().encodeInto(value, new Uint8Array(maxBytes)).read);
}

/**
 * An untrusted string as one safe path component: no separators, controls or invisible characters, no
 * leading dots, no trailing dots or spaces, no device name, bounded, never empty. A changed input gets a
 * short hash of the original, so two distinct inputs never land on one file.
 */
export function safeComponent(raw: string): string {
  const cleaned = cleanComponent(raw);
  if (cleaned !== '' && cleaned === raw && Buffer.byteLength(cleaned, 'utf8') <= MAX_COMPONENT_BYTES) return cleaned;
  return withHash(cleaned, raw);
}

/** The safe component with a hash suffix always added, for a name stepping aside for another; `salt` hashed too. */
export function distinctComponent(raw: string, salt?: string): string {
  return withHash(cleanComponent(raw), salt === undefined ? raw : `${raw}\n${salt}`);
}

/** The form under which two names are one file somewhere: NFC (macOS) and case-folded (macOS, Windows). */
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
 * Joins components under `dir`, each checked to be one plain name (not empty, `.` or `..`, no
 * separator), so the result lies inside it (the second line of defence after safeComponent).
 */
export function pathInside(dir: string, ...components: string[]): string {
  const plain = (c: string): boolean => c !== '' && c !== '.' && c !== '..' && !c.includes('/') && !c.includes(sep);
  if (components.length === 0 || !components.every(plain)) {
    throw new MalformedResponseError(`Refusing to write outside the output directory: ${JSON.stringify(components.join('/'))}.`);
  }
  return join(resolve(dir), ...components);
}

/** With the parent made, checks its real location is inside the real output directory: a planted link cannot redirect a write. */
export async function assertRealInside(dir: string, parent: string): Promise<void> {
  const [realDir, realParent] = await Promise.all([realpath(dir), realpath(parent)]);
  if (!isInside(realDir, realParent)) {
    throw new MalformedResponseError(`Refusing to write outside the output directory: ${parent} leads to ${realParent}.`);
  }
}
