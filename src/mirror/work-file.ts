/**
 * The mirror's work file, `<dir>/.mirror/records.jsonl`: one line per answer received (a
 * record, or a record in one language), appended as it arrives (see WorkFileWriter), so a run stopped
 * at any point (budget, Ctrl-C, a crash) keeps every answer it paid for and the next run
 * asks for none of them again. A torn last line (a crash mid-write) is ignored.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { ExerciseRecord, Translation } from '../catalogue/types.js';

export const WORK_DIR = '.mirror';

/** One answer: the record (lang null), or its text in `lang`. */
export interface WorkLine {
  id: string;
  lang: string | null;
  record: ExerciseRecord;
}

/** What the work file holds, by id: the record and its translations by language. */
export interface Fetched {
  records: Map<string, ExerciseRecord>;
  /** Languages asked per id (whether or not the exercise had a translation in it). */
  langs: Map<string, Map<string, Translation | null>>;
}

export function workPaths(dir: string): { workDir: string; records: string; listing: string } {
  const workDir = join(dir, WORK_DIR);
  return { workDir, records: join(workDir, 'records.jsonl'), listing: join(workDir, 'listing.json') };
}

/** The text of `record` in its language, or null when it is all English (no translation there). */
export function translationOf(english: ExerciseRecord, localised: ExerciseRecord): Translation | null {
  const t: Translation = {
    displayName: localised.displayName ?? localised.name,
    aliases: localised.aliases ?? [],
    instructions: localised.instructions ?? [],
  };
  const same =
    t.displayName === (english.displayName ?? english.name) &&
    JSON.stringify(t.aliases) === JSON.stringify(english.aliases ?? []) &&
    JSON.stringify(t.instructions) === JSON.stringify(english.instructions ?? []);
  return same ? null : t;
}

export function readWorkFile(dir: string): Fetched {
  const fetched: Fetched = { records: new Map(), langs: new Map() };
  let text: string;
  try {
    text = readFileSync(workPaths(dir).records, 'utf8');
  } catch {
    return fetched;
  }
  const localised: WorkLine[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let parsed: WorkLine;
    try {
      parsed = JSON.parse(line) as WorkLine;
    } catch {
      continue; // a line torn by a crash: its request is simply made again
    }
    if (typeof parsed?.id !== 'string' || typeof parsed.record !== 'object' || parsed.record === null) continue;
    if (parsed.lang === null) fetched.records.set(parsed.id, parsed.record);
    else localised.push(parsed);
  }
  // Translations after every record: a record fetched anew (--refresh) is the English they compare to.
  for (const l of localised) {
    const english = fetched.records.get(l.id);
    if (!english || l.lang === null) continue;
    const byLang = fetched.langs.get(l.id) ?? new Map<string, Translation | null>();
    byLang.set(l.lang, translationOf(english, l.record));
    fetched.langs.set(l.id, byLang);
  }
  return fetched;
}

/**
 * Appends answers to the work file. Each line is written to the file as it arrives (a killed
 * process loses none); fsync runs at most every SYNC_INTERVAL_MS and on close, so a machine
 * crash loses at most that much. An fsync per line made a 2,500-exercise mirror five times slower.
 */
const SYNC_INTERVAL_MS = 200;

export class WorkFileWriter {
  private readonly fd: number;
  private lastSync = Date.now();

  constructor(dir: string) {
    const paths = workPaths(dir);
    mkdirSync(paths.workDir, { recursive: true });
    this.fd = openSync(paths.records, 'a');
  }

  append(line: WorkLine): void {
    writeSync(this.fd, `${JSON.stringify(line)}\n`);
    const now = Date.now();
    if (now - this.lastSync >= SYNC_INTERVAL_MS) {
      fsyncSync(this.fd);
      this.lastSync = now;
    }
  }

  close(): void {
    try {
      fsyncSync(this.fd);
    } finally {
      closeSync(this.fd);
    }
  }
}
