/**
 * "Did you mean …?": the closest words to what a person typed, by edit distance over a loose form (any
 * case, separators ignored), a swap of neighbouring letters counting one edit.
 */
import { distance as levenshtein } from 'fastest-levenshtein';

/** Lower case, with everything but letters and digits removed: `Push-Up` → `pushup`. */
export function looseForm(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/** Edits from `a` to `b`, a swap counting one: Levenshtein first, the table only when close. */
export function editDistance(a: string, b: string): number {
  const plain = levenshtein(a, b);
  if (plain < 2) return plain;
  // One row per letter of `a`, two rows back kept for the swap.
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = new Array<number>(b.length + 1).fill(0);
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, before[j - 2]! + 1);
      row[j] = best;
    }
    before = previous;
    previous = row;
  }
  return Math.min(plain, previous[b.length]!);
}

/** Near enough to offer: one edit in three letters, at least one (`abbs` finds `abs`, `back` never `neck`). */
export function nearEnough(typed: string, candidate: string): boolean {
  const a = looseForm(typed);
  const b = looseForm(candidate);
  if (a === '' || b === '') return false;
  if (a === b) return true;
  const allowed = Math.max(1, Math.floor(Math.min(a.length, b.length) / 3));
  return editDistance(a, b) <= allowed;
}

/** The items whose key is nearest `typed`, best first, at most `max`: the same loose form, then a prefix, then edit distance. */
export function closest<T>(typed: string, items: readonly T[], key: (item: T) => string, max = 3): T[] {
  const wanted = looseForm(typed);
  if (wanted === '') return [];
  const scored: { item: T; score: number }[] = [];
  const seen = new Set<string>();
  for (const item of items) {
    const loose = looseForm(key(item));
    if (loose === '' || seen.has(loose)) continue;
    let score: number | undefined;
    if (loose === wanted) score = 0;
    else if (wanted.length >= 3 && loose.startsWith(wanted)) score = 1 + (loose.length - wanted.length) / 100;
    else if (nearEnough(wanted, loose)) score = 2 + editDistance(wanted, loose);
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

export function closestWords(typed: string, words: readonly string[], max = 3): string[] {
  return closest(typed, words, (w) => w, max);
}

/** `a`, `a or b`, `a, b or c`: suggestions in a sentence. */
export function orList(words: readonly string[]): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;
}
