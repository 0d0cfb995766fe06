/** One picker line per exercise (name, muscle and equipment, id) fitted to the width, every text sanitised: it came from the service. */
import type { Measure } from '../output/width.js';
import { escapeUnsafe } from '../util/text.js';
import type { PickCandidate } from './candidates.js';
import type { ExerciseRecord } from '../catalogue/types.js';
import { humanEnum, renderRecordText } from '../output/record.js';

/** The muscle and equipment column: `chest · barbell`. */
export function detailsOf(c: PickCandidate): string {
  return [c.primaryMuscle?.map(humanEnum).join(', '), c.equipment !== undefined ? humanEnum(c.equipment) : undefined]
    .filter((t) => t !== undefined && t !== '')
    .join(' · ');
}

function partsOf(c: PickCandidate): { title: string; details: string; id: string } {
  return { title: escapeUnsafe(c.displayName ?? c.name ?? c.id), details: escapeUnsafe(detailsOf(c)), id: escapeUnsafe(c.id) };
}

export interface Columns {
  title: number;
  details: number;
  id: number;
}

/**
 * Column widths for lines of `room` columns: each as wide as its longest text when all fit; else room is
 * taken from the details and the title in turn, then the details go, and only then is the id cut (a cut id cannot be typed back).
 */
export function columnsFor(candidates: readonly PickCandidate[], room: number, measure: Measure): Columns {
  const parts = candidates.map(partsOf);
  // Not Math.max(...all): thousands of rows would overflow the argument list.
  const widest = (key: keyof Columns): number => parts.reduce((w, p) => Math.max(w, measure.width(p[key])), 0);
  let title = widest('title');
  let details = widest('details');
  let id = widest('id');
  const GAPS = 4; // two spaces between the three columns
  let over = title + details + id + GAPS - Math.max(room, 24);
  const shrink = (width: number, floor: number): number => {
    const by = Math.max(0, Math.min(over, width - floor));
    over -= by;
    return width - by;
  };
  details = shrink(details, Math.min(details, 20));
  title = shrink(title, Math.min(title, 20));
  details = shrink(details, Math.min(details, 12));
  title = shrink(title, Math.min(title, 16));
  details = shrink(details, 0);
  id = shrink(id, Math.min(id, 8));
  title = shrink(title, 4);
  return { title, details, id };
}

/** A candidate's line (the id left out when it is the title). */
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

/** A candidate's preview: its card as `show` prints it, from what is held here. */
export function previewOf(c: PickCandidate, width: number, measure: Measure): string[] {
  const { displayName, primaryMuscle, secondaryMuscle, equipment, level, instructions } = c.record as Partial<ExerciseRecord>;
  const record: ExerciseRecord = { id: c.id, name: c.name ?? c.id, displayName, primaryMuscle, secondaryMuscle, equipment, level, instructions };
  return renderRecordText(record, { width, measure: measure.width }).split('\n');
}
