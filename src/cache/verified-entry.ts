/**
 * One entry of the response cache read and verified: the store read by hand where this client
 * wrote it (store-read.ts), by cacache otherwise; its metadata must be what this client
 * writes and its content JSON. Whatever fails is dropped (by the caller's `drop`) and read as
 * a miss, never served.
 */
import { type EntryMeta, parseEntryMeta } from './freshness.js';
import { type IndexEntry, readStoreEntry } from './store-read.js';
import { loadCacache } from '../vendor/cacache.js';

export interface Verified {
  entry: IndexEntry;
  data: Buffer;
  meta: EntryMeta;
  body: unknown;
}

export interface VerifyHooks {
  log: (line: string) => void;
  /** The size of the entry's index bucket, so a later write can compact a bucket that has grown. */
  bucketSeen: (bytes: number) => void;
  /** Drops the corrupt entry, and its content when that is what failed verification. */
  drop: (reason: string, badContent?: string) => Promise<void>;
}

/** The verified entry under `key`, or undefined (a corrupt one dropped on the way, through `hooks.drop`). */
export async function readVerified(path: string, key: string, hooks: VerifyHooks): Promise<Verified | undefined> {
  let result;
  try {
    result = await readStoreEntry(path, key);
  } catch (err) {
    hooks.log(`cache: cannot read ${path}: ${(err as Error).message}`);
    return undefined;
  }
  if (result.status === 'missing') {
    hooks.bucketSeen(result.bucketBytes);
    return undefined;
  }
  if (result.status === 'corrupt') {
    await hooks.drop(result.reason, result.entry.integrity);
    return undefined;
  }
  let data: Buffer;
  if (result.status === 'unsupported') {
    // Not written by this client: let cacache read and verify it.
    try {
      const { default: cacache } = await loadCacache();
      data = (await cacache.get(path, key)).data;
    } catch (err) {
      await hooks.drop(`cacache cannot read it (${(err as Error).message})`);
      return undefined;
    }
  } else {
    data = result.data;
    hooks.bucketSeen(result.bucketBytes);
  }
  const meta = parseEntryMeta(result.entry.metadata);
  if (!meta) {
    await hooks.drop('its metadata is not what this client writes');
    return undefined;
  }
  let body: unknown;
  try {
    body = JSON.parse(data.toString('utf8'));
  } catch {
    await hooks.drop('its content is not JSON');
    return undefined;
  }
  return { entry: result.entry, data, meta, body };
}
