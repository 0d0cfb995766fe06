/**
 * What the picker offers: an exercise as far as the tool knows it, from a catalogue record, a
 * list answer in the cache or just the id index (id and name). Texts are searched folded
 * (fuzzy.ts) and shown sanitised (label.ts).
 */
import { foldText } from './fuzzy.js';

export interface PickCandidate {
  id: string;
  name?: string;
  displayName?: string;
  aliases?: string[];
  primaryMuscle?: string[];
  equipment?: string;
  /** Folded id, name, display name and aliases: computed once, searched on every key. */
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
  // A catalogue directory's record carries its translations: the display name in the language asked for.
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
    folded: [id, name, displayName, ...aliases].filter((t): t is string => t !== undefined).map(foldText),
  };
}

/** The fields a candidate may lack (primary muscle, equipment…) filled from another one for the same id. */
function merged(a: PickCandidate, b: PickCandidate): PickCandidate {
  const out: PickCandidate = { ...b, ...a };
  out.folded = [...new Set([...a.folded, ...b.folded])];
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
