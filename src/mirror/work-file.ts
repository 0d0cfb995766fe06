/**
 * The mirror's work file, `<dir>/.mirror/records.jsonl`: one line per answer, appended as it arrives, so
 * a stopped run keeps every answer it paid for; a torn last line is ignored. Each line names its source,
 * so a run against another service or plan fetches again.
 */
import { closeSync, constants, fstatSync, ftruncateSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ExerciseRecord, Translation } from '../catalogue/types.js';
import { fsyncOrThrow, writeAllSync, writeFailed } from '../util/write-all.js';
import { ensureRealDir, refuseLink } from '../util/real-dir.js';

export const WORK_DIR = '.mirror';

/** Where answers came from: the service, a hash of the key, and the plan its listing showed. */
export interface MirrorSource {
  origin: string;
  keyHash: string;
  plan: 'premium' | 'free';
}

/** One answer: the record (lang null), or its text in `lang`. */
export interface WorkLine {
  id: string;
  lang: string | null;
  record: ExerciseRecord;
  /** Absent in older lines: taken as the current source. */
  source?: MirrorSource;
}

export interface Fetched {
  records: Map<string, ExerciseRecord>;
  /** Languages asked per id (translated or not). */
  langs: Map<string, Map<string, Translation | null>>;
  /** Records and translations (`id\0lang`) last fetched from another service or plan: to fetch again. */
  stale: Set<string>;
}

/** A server on this machine (its port changes per run) is one service. */
function serviceOf(origin: string): string {
  const host = URL.canParse(origin) ? new URL(origin).hostname : '';
  return origin === 'sandbox' || host === 'localhost' || host === '[::1]' || /^127\./.test(host) ? 'local' : origin;
}

/** Whether answers from `a` hold for `b`: the same service and plan (another key of the plan sees the same). */
export function sameSource(a: MirrorSource | undefined, b: MirrorSource | undefined): boolean {
  return a === undefined || b === undefined || (serviceOf(a.origin) === serviceOf(b.origin) && a.plan === b.plan);
}

export const staleKey = (id: string, lang: string | null): string => (lang === null ? id : `${id}\0${lang}`);

export function workPaths(dir: string): { workDir: string; records: string; listing: string; listingCached: string } {
  const workDir = join(dir, WORK_DIR);
  return {
    workDir,
    records: join(workDir, 'records.jsonl'),
    listing: join(workDir, 'listing.json'),
    listingCached: join(workDir, 'listing-cached'),
  };
}

const textOf = (r: ExerciseRecord): Translation => ({ displayName: r.displayName ?? r.name, aliases: r.aliases ?? [], instructions: r.instructions ?? [] });

/** The text of `localised` in its language, or null when it is all English (no translation there). */
function translationOf(english: ExerciseRecord, localised: ExerciseRecord): Translation | null {
  const t = textOf(localised);
  return JSON.stringify(t) === JSON.stringify(textOf(english)) ? null : t;
}

export function readWorkFile(dir: string, source?: MirrorSource): Fetched {
  const fetched: Fetched = { records: new Map(), langs: new Map(), stale: new Set() };
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
    if (sameSource(parsed.source, source)) fetched.stale.delete(staleKey(parsed.id, parsed.lang));
    else fetched.stale.add(staleKey(parsed.id, parsed.lang));
    if (parsed.lang === null) fetched.records.set(parsed.id, parsed.record);
    else localised.push(parsed);
  }
  // Translations after every record: a record fetched anew is the English they compare to.
  for (const l of localised) addTranslation(fetched, l.id, l.lang!, l.record);
  return fetched;
}

/** Keeps `id`'s text in `lang` (null when all English) against its English record. */
export function addTranslation(fetched: Fetched, id: string, lang: string, localised: ExerciseRecord): void {
  const english = fetched.records.get(id);
  if (!english) return;
  const byLang = fetched.langs.get(id) ?? new Map<string, Translation | null>();
  byLang.set(lang, translationOf(english, localised));
  fetched.langs.set(id, byLang);
}

/** Answers are appended as they arrive (a killed process loses none), fsynced at most this often and on close. */
const SYNC_INTERVAL_MS = 200;

export class WorkFileWriter {
  private readonly fd: number;
  private readonly path: string;
  private lastSync = Date.now();

  constructor(dir: string) {
    const paths = workPaths(dir);
    ensureRealDir(dir, WORK_DIR);
    this.path = paths.records;
    // Never through a planted link, and only a plain file with one name.
    try {
      this.fd = openSync(paths.records, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0), 0o666);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ELOOP') throw refuseLink(paths.records);
      throw writeFailed(paths.records, err);
    }
    const info = fstatSync(this.fd);
    if (!info.isFile() || info.nlink !== 1) {
      closeSync(this.fd);
      throw refuseLink(paths.records);
    }
  }

  /** Appends one line; a failed write is cut off again and throws WriteFailedError. */
  append(line: WorkLine): void {
    const size = fstatSync(this.fd).size;
    try {
      writeAllSync(this.fd, `${JSON.stringify(line)}\n`, this.path);
    } catch (err) {
      try {
        ftruncateSync(this.fd, size);
      } catch {
        // A torn line left behind is ignored by readWorkFile.
      }
      throw err;
    }
    const now = Date.now();
    if (now - this.lastSync >= SYNC_INTERVAL_MS) {
      fsyncOrThrow(this.fd, this.path);
      this.lastSync = now;
    }
  }

  close(): void {
    try {
      fsyncOrThrow(this.fd, this.path);
    } finally {
      closeSync(this.fd);
    }
  }
}
