/**
 * The write side of the store, through cacache itself: content written to a temp file and
 * renamed into place (content-addressed, so two writers of the same bytes agree), index
 * lines appended with their own hash (a torn line is ignored on read). Loaded only when
 * something is written or dropped: a cache hit never comes here.
 */
import { rmSync } from 'node:fs';
import { contentPath, pickDigest } from './store-read.js';

interface CacacheWrite {
  put: typeof import('cacache/lib/put.js').default;
  index: typeof import('cacache/lib/entry-index.js').default;
}

let loaded: Promise<CacacheWrite> | undefined;

function cacacheWrite(): Promise<CacacheWrite> {
  loaded ??= Promise.all([import('cacache/lib/put.js'), import('cacache/lib/entry-index.js')]).then(([put, index]) => ({
    put: put.default,
    index: index.default,
  }));
  return loaded;
}

/** An index bucket this large has seen many rewrites of one key: compact it to the newest line. */
const COMPACT_BUCKET_BYTES = 16 * 1024;

/** Stores `data` under `key` with `metadata`; resolves to its integrity (SRI string) and size. */
export async function writeEntry(dir: string, key: string, data: Buffer, metadata: unknown): Promise<{ integrity: string; size: number }> {
  const { put } = await cacacheWrite();
  const integrity = (await put(dir, key, data, { metadata })).toString();
  return { integrity, size: data.length };
}

/** Points `key` at content already in the store (the same bytes under another key, or new metadata after a 304). */
export async function linkEntry(dir: string, key: string, integrity: string, size: number, metadata: unknown): Promise<void> {
  const { index } = await cacacheWrite();
  await index.insert(dir, key, integrity, { metadata, size });
}

/** Forgets `key` (cacache appends a deletion line); its content stays for any other key that shares it. */
export async function deleteEntry(dir: string, key: string): Promise<void> {
  const { index } = await cacacheWrite();
  await index.delete(dir, key);
}

/**
 * Removes a content file that failed verification. It is wrong for every key that names it,
 * and cacache never overwrites content already in place, so it must go before the same
 * bytes can be stored again.
 */
export async function removeContent(dir: string, integrity: string): Promise<void> {
  const digest = pickDigest(integrity);
  if (digest) rmSync(contentPath(dir, digest), { force: true });
}

/** Rewrites `key`'s bucket to its newest line once repeated refreshes have grown it. */
export async function compactIfLarge(dir: string, key: string, bucketBytes: number): Promise<void> {
  if (bucketBytes <= COMPACT_BUCKET_BYTES) return;
  const { index } = await cacacheWrite();
  await index.compact(dir, key, (a, b) => a.key === b.key);
}
