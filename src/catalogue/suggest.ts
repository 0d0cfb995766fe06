/**
 * "Did you mean …?": the closest of a set of words to what a person typed, by edit distance
 * (fastest-levenshtein) over a loose form of both (any case, separators and punctuation
 * ignored), so that `push_up`, `Push-Up` and `push up` are the same word and `Push_Upp` is one
 * letter from it. Used for commands, help topics, settings keys, enum values and exercise ids.
 */
import { distance } from 'fastest-levenshtein';

/** Lower case, with everything but letters and digits removed: `Push-Up` → `pushup`. */
export function looseForm(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/**
 * How far a word may be from the one typed and still be offered: one edit in three letters
 * (a swap of two letters is two), at least one, so `abbs` finds `abs` but `back` never finds `neck`.
 */
export function nearEnough(typed: string, candidate: string): boolean {
  const a = looseForm(typed);
  const b = looseForm(candidate);
  if (a === '' || b === '') return false;
  if (a === b) return true;
  const allowed = Math.max(1, Math.floor(Math.min(a.length, b.length) / 3));
  return distance(a, b) <= allowed;
}

interface Scored<T> {
  item: T;
  score: number;
}

/**
 * The items whose key is nearest `typed`, best first, at most `max`: the same loose form
 * first (and then alone), then a key that starts with what was typed (`quer` → query), then
 * by edit distance within nearEnough. Items with equal keys appear once.
 */
export function closest<T>(typed: string, items: readonly T[], key: (item: T) => string, max = 3): T[] {
  const wanted = looseForm(typed);
  if (wanted === '') return [];
  const scored: Scored<T>[] = [];
  const seen = new Set<string>();
  for (const item of items) {
    const loose = looseForm(key(item));
    if (loose === '' || seen.has(loose)) continue;
    let score: number | undefined;
    if (loose === wanted) score = 0;
    else if (wanted.length >= 3 && loose.startsWith(wanted)) score = 1 + (loose.length - wanted.length) / 100;
    else if (nearEnough(wanted, loose)) score = 2 + distance(wanted, loose);
    if (score !== undefined) {
      seen.add(loose);
      scored.push({ item, score });
    }
  }
  // The same word spelled differently is the answer: nothing merely near is offered beside it.
  const exact = scored.filter((s) => s.score === 0);
  return (exact.length > 0 ? exact : scored)
    .sort((a, b) => a.score - b.score)
    .slice(0, max)
    .map((s) => s.item);
}

/** closest() over plain words. */
export function closestWords(typed: string, words: readonly string[], max = 3): string[] {
  return closest(typed, words, (w) => w, max);
}

/** `a`, `a or b`, `a, b or c`: suggestions in a sentence. */
export function orList(words: readonly string[]): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;
}
