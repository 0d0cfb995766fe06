/**
 * A short stable hash (FNV-1a, 32 bits, 8 hex digits) for naming cache files after a path and
 * a version: node:crypto costs a TAB or a one-record `--catalogue` run too much to load. Every
 * such file also records what it was made from, and is checked against it when read, so two
 * names that hash alike only cost a rebuild.
 */
export function shortHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}
