/** Case- and accent-insensitive substring matching for the `name` and `alias` filters. */

/** Lower-case, without combining marks (é → e, ü → u), ß as ss, runs of white space as one space. */
export function foldText(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/ß/g, 'ss').replace(/\s+/g, ' ').trim();
}

/** True when `needle` (already folded) occurs in any of the haystacks. */
export function anyContains(haystacks: readonly string[], foldedNeedle: string): boolean {
  return haystacks.some((h) => foldText(h).includes(foldedNeedle));
}
