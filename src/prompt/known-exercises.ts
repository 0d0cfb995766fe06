/** The exercises the picker can offer without a request: a catalogue directory's records, else the cached answers and the id index. */
import type { Context } from '../context.js';
import { langInForce } from '../config/settings.js';
import { cacheRoot, entryNames, httpCacheDir, readEntryFile } from '../cache/store-files.js';
import { readIdIndex } from '../completion/id-index.js';
import { type PickCandidate, candidateOf, mergeCandidates } from './candidates.js';
import { sampleCatalogueDir } from '../server/sandbox.js';
import { readCatalogue } from '../catalogue/load.js';
import { normalOrigin } from '../cache/cached-get.js';

export interface KnownExercises {
  candidates: PickCandidate[];
  source: 'catalogue' | 'cache';
}

/** The catalogue directory answering this run, if any. */
export async function catalogueDir(ctx: Context): Promise<string | undefined> {
  const conn = await ctx.connection();
  if (conn.catalogue !== undefined) return conn.catalogue;
  if (!ctx.globals.sandbox) return undefined;
  return sampleCatalogueDir();
}

export async function knownExercises(ctx: Context): Promise<KnownExercises> {
  const lang = langInForce(ctx.settings());
  const dir = await catalogueDir(ctx);
  if (dir !== undefined) {
    const catalogue = readCatalogue(dir, { whole: true });
    return { candidates: mergeCandidates([catalogue.entries.map((e) => candidateOf(e, lang))]), source: 'catalogue' };
  }
  const conn = await ctx.connection();
  const root = cacheRoot(ctx.env);
  const cached = ctx.globals.cache ? await cachedExercises(httpCacheDir(root), conn.baseUrl) : [];
  // Cached answers first: they carry more than the id index's names.
  return { candidates: mergeCandidates([cached.map((e) => candidateOf(e, lang)), readIdIndex(root).map((e) => candidateOf(e))]), source: 'cache' };
}

/** The exercise objects of the cached answers for `origin`, as stored. */
export async function cachedExercises(storeDir: string, origin: string): Promise<unknown[]> {
  const marker = ` ${normalOrigin(origin)} `;
  const out: unknown[] = [];
  for (const name of entryNames(storeDir)) {
    const entry = readEntryFile(storeDir, name);
    if (!entry?.key.includes(marker)) continue;
    let body: unknown;
    try {
      body = JSON.parse(entry.body.toString('utf8'));
    } catch {
      continue;
    }
    if (typeof body !== 'object' || body === null) continue;
    const list = (body as { exercises?: unknown }).exercises;
    if (!Array.isArray(list)) out.push(body);
    else for (const item of list as unknown[]) out.push(item); // not push(...list): a page may hold 100,000s
  }
  return out;
}
