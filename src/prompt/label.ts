/**
 * One line of the picker per exercise: the name (the id when the name is unknown), the
 * primary muscle and the equipment, and the id, fitted to the terminal width. Everything in it
 * came from the service: each text goes through the sanitiser, which shows any control
 * character as `\xNN` instead of letting it act on the terminal.
 */
import type { Measure } from '../output/width.js';
import { escapeUnsafe } from '../util/text.js';
import type { PickCandidate } from './candidates.js';

/** `LOWER_BACK` as a person reads it: `lower back`. */
function friendly(value: string): string {
  return value.toLowerCase().replace(/_/g, ' ');
}

/** The muscle and equipment column: `chest · barbell`. */
export function detailsOf(c: PickCandidate): string {
  return [c.primaryMuscle?.map(friendly).join(', '), c.equipment !== undefined ? friendly(c.equipment) : undefined]
    .filter((t) => t !== undefined && t !== '')
    .join(' · ');
}

/** The three texts of a line, sanitised. */
function partsOf(c: PickCandidate): { title: string; details: string; id: string } {
  return { title: escapeUnsafe(c.displayName ?? c.name ?? c.id), details: escapeUnsafe(detailsOf(c)), id: escapeUnsafe(c.id) };
}

export interface Columns {
  title: number;
  details: number;
  id: number;
}

/**
 * Column widths for a list fitting `columns` (less 4 for the prompt's cursor and margin): the
 * id and the details as wide as their longest (up to a cap), the title the rest, and at least 16.
 */
export function columnsFor(candidates: readonly PickCandidate[], columns: number, measure: Measure): Columns {
  const room = Math.max(40, columns - 4);
  let id = 0;
  let details = 0;
  for (const c of candidates) {
    const p = partsOf(c);
    id = Math.max(id, measure.width(p.id));
    details = Math.max(details, measure.width(p.details));
  }
  id = Math.min(id, Math.floor(room * 0.3));
  details = Math.min(details, Math.floor(room * 0.3));
  return { title: Math.max(16, room - id - details - 4), details, id };
}

/** The line shown for a candidate, in the given columns (the id is left out when it is the title). */
export function labelOf(c: PickCandidate, cols: Columns, measure: Measure): string {
  const pad = (text: string, width: number) => text + ' '.repeat(Math.max(0, width - measure.width(text)));
  const { title, details, id } = partsOf(c);
  const cells = [
    pad(measure.truncate(title, cols.title), cols.title),
    pad(measure.truncate(details, cols.details), cols.details),
    id === title ? '' : measure.truncate(id, cols.id),
  ];
  return cells.join('  ').trimEnd();
}
