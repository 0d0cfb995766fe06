/**
 * What the picker offers (an exercise as far as known, shown sanitised) and how it is searched, as fzf
 * in spirit: every word typed must be in one of its texts, as a substring or letters in order, ignoring
 * case, accents and `_`/`-`. Whole words at the start, substrings and short texts rank first.
 */

export interface PickCandidate {
  id: string;
  name?: string;
  displayName?: string;
  aliases?: string[];
  primaryMuscle?: string[];
  equipment?: string;
  /** The record as known, for the preview. */
  record: Record<string, unknown>;
  /** Folded texts: computed once, searched on every key. */
  folded: string[];
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v !== '') : [];
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** A candidate from any record-like object with a string id; undefined without one. */
export function candidateOf(raw: unknown, lang?: string): PickCandidate | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const r = raw as Record<string, unknown>;
  const id = text(r.id);
  if (id === undefined) return undefined;
  // A catalogue record carries its translations: the display name in the language asked for.
  const translation = lang && typeof r.translations === 'object' && r.translations !== null ? (r.translations as Record<string, unknown>)[lang] : undefined;
  const translated = typeof translation === 'object' && translation !== null ? (translation as Record<string, unknown>) : {};
  const name = text(r.name);
  const displayName = text(translated.displayName) ?? text(r.displayName);
  const aliases = [...strings(r.aliases), ...strings(translated.aliases)];
  const primaryMuscle = strings(r.primaryMuscle);
  const equipment = text(r.equipment);
  return {
    id,
    ...(name !== undefined ? { name } : {}),
    ...(displayName !== undefined ? { displayName } : {}),
    ...(aliases.length > 0 ? { aliases } : {}),
    ...(primaryMuscle.length > 0 ? { primaryMuscle } : {}),
    ...(equipment !== undefined ? { equipment } : {}),
    record: { ...r, ...translated },
    folded: [id, name, displayName, ...aliases].filter((t): t is string => t !== undefined).map(foldText),
  };
}

/** The fields a candidate lacks filled from another for the same id. */
function merged(a: PickCandidate, b: PickCandidate): PickCandidate {
  const out: PickCandidate = { ...b, ...a };
  out.folded = [...new Set([...a.folded, ...b.folded])];
  if (Object.keys(b.record).length > Object.keys(a.record).length) out.record = b.record;
  return out;
}

/** One candidate per id, in first-seen order, each with everything known of it. */
export function mergeCandidates(lists: Iterable<Iterable<PickCandidate | undefined>>): PickCandidate[] {
  const byId = new Map<string, PickCandidate>();
  for (const list of lists) {
    for (const c of list) {
      if (!c) continue;
      const known = byId.get(c.id);
      byId.set(c.id, known ? merged(known, c) : c);
    }
  }
  return [...byId.values()];
}

/** Lower case, accents removed, `_` and `-` as spaces. */
export function foldText(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/[_-]+/g, ' ');
}

function wordScore(word: string, text: string): number | undefined {
  const at = text.indexOf(word);
  if (at >= 0) {
    const wordStart = at === 0 || text[at - 1] === ' ';
    return 1000 + (wordStart ? 200 : 0) - Math.min(at, 100) - Math.min(text.length, 100) / 10;
  }
  // Letters in order, spread out: fewer and shorter gaps are better.
  let from = 0;
  let gaps = 0;
  for (const ch of word) {
    const i = text.indexOf(ch, from);
    if (i < 0) return undefined;
    if (from > 0) gaps += i - from;
    from = i + 1;
  }
  return 500 - Math.min(gaps * 10, 400);
}

/** A query's score over an item's texts (higher is better); undefined when a word is not found. */
export function fuzzyScore(query: string, texts: readonly string[]): number | undefined {
  let total = 0;
  for (const word of foldText(query).split(/\s+/)) {
    if (word === '') continue;
    // Not Math.max(...scores): a record may carry 100,000s of aliases.
    let best: number | undefined;
    for (const text of texts) {
      const score = wordScore(word, text);
      if (score !== undefined && (best === undefined || score > best)) best = score;
    }
    if (best === undefined) return undefined;
    total += best;
  }
  return total;
}

/** The items matching the query, best first (ties keep their order). */
export function fuzzyFilter<T>(items: readonly T[], query: string, textsOf: (item: T) => readonly string[]): T[] {
  if (query.trim() === '') return [...items];
  const scored: Array<{ item: T; score: number; index: number }> = [];
  items.forEach((item, index) => {
    const score = fuzzyScore(query, textsOf(item));
    if (score !== undefined) scored.push({ item, score, index });
  });
  scored.sort((a, b) => b.score - a.score || a.index - b.index);
  return scored.map((s) => s.item);
}
