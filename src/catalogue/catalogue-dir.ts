/** Whether a directory can be served as a catalogue (it holds exercises.jsonl), checked cheaply before anything starts. */
import { readFileSync, statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';

export const CATALOGUE_FILE = 'exercises.jsonl';

/** A sentence naming what is wrong with `dir`, or undefined when it looks like a catalogue. */
export function catalogueDirProblem(dir: string): string | undefined {
  const root = resolve(dir);
  try {
    if (!statSync(root).isDirectory()) return `${root} is not a directory`;
  } catch {
    return `No catalogue directory at ${root}`;
  }
  try {
    if (!statSync(join(root, CATALOGUE_FILE)).isFile()) return `${join(root, CATALOGUE_FILE)} is not a file`;
  } catch {
    return `${root} has no ${CATALOGUE_FILE}, so it is not a catalogue directory`;
  }
  return undefined;
}

/**
 * The catalogue's media index, `<dir>/media-index.json`, written by `mirror`: per folder, id and file
 * name as the URL asks, the path of a file stored under a safe name (the id `CON` in `images/_CON-a3dbc4b6/`),
 * looked at first by `serve` and `--catalogue`. Absent or unreadable: the plain layout only.
 */
export const MEDIA_INDEX_FILE = 'media-index.json';

export type MediaIndexFiles = Record<string, Record<string, Record<string, string>>>;

/** The index's files; empty when there is none or it cannot be read. */
export function readMediaIndex(dir: string): MediaIndexFiles {
  try {
    const parsed = JSON.parse(readFileSync(join(resolve(dir), MEDIA_INDEX_FILE), 'utf8')) as { files?: unknown };
    const files = parsed?.files;
    return typeof files === 'object' && files !== null && !Array.isArray(files) ? (files as MediaIndexFiles) : {};
  } catch {
    return {};
  }
}

export function mediaIndexText(files: MediaIndexFiles): string {
  return `${JSON.stringify({ version: 1, files })}\n`;
}

/** Each loaded index with its mtime: read again only when the file changes. */
const loaded = new Map<string, { mtimeMs: number; files: MediaIndexFiles }>();

/** The relative path the index gives for `/<folder>/<id>/premium/<fileName>`, only of plain components; the caller checks it stays inside. */
export async function indexedMediaPath(dir: string, folder: string, id: string, fileName: string): Promise<string | undefined> {
  const root = resolve(dir);
  const file = join(root, MEDIA_INDEX_FILE);
  let mtimeMs: number;
  try {
    mtimeMs = (await stat(file)).mtimeMs;
  } catch {
    return undefined;
  }
  let entry = loaded.get(root);
  if (!entry || entry.mtimeMs !== mtimeMs) {
    entry = { mtimeMs, files: readMediaIndex(root) };
    loaded.set(root, entry);
  }
  // Own keys only, each level checked: the file is data, which may name `__proto__`.
  let rel: unknown = entry.files;
  for (const key of [folder, id, fileName])
    rel = typeof rel === 'object' && rel !== null && Object.hasOwn(rel, key) ? (rel as Record<string, unknown>)[key] : undefined;
  if (typeof rel !== 'string' || rel === '' || isAbsolute(rel)) return undefined;
  const parts = rel.split('/');
  if (parts.some((p) => p === '' || p === '.' || p === '..' || p.includes('\\') || p.includes('\0'))) return undefined;
  return rel;
}
