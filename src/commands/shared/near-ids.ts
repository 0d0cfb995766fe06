/**
 * "Did you mean …?" for an id or name the service did not find, from what is known on this
 * machine only, never a request: the catalogue directory in use (--catalogue, --sandbox's
 * sample), else the ids and names the response cache has seen (completion's id index).
 * `push_up` and `Push_Upp` find `Push_Up`; the spellings compared are loose (suggest.ts).
 */
import type { Context } from '../../context.js';
import { closest, orList } from '../../catalogue/suggest.js';
import { cacheRoot } from '../../cache/store-files.js';
import { catalogueEntriesMatching } from '../../completion/catalogue-ids.js';
import { readIdIndex } from '../../completion/id-index.js';
import { sampleCatalogueDir } from '../../server/sandbox.js';

export { orList };

interface Known {
  id: string;
  name?: string;
}

async function knownExercises(ctx: Context): Promise<Known[]> {
  const cacheDir = cacheRoot(ctx.env);
  const conn = await ctx.connection();
  let dir = conn.catalogue;
  if (dir === undefined && ctx.globals.sandbox) dir = sampleCatalogueDir();
  if (dir !== undefined) {
    return catalogueEntriesMatching(dir, '', cacheDir);
  }
  return readIdIndex(cacheDir);
}

/** The ids (at most three) nearest `typed` by id or by name, best first. */
export async function nearIds(ctx: Context, typed: string): Promise<string[]> {
  let known: Known[];
  try {
    known = await knownExercises(ctx);
  } catch {
    return []; // an unreadable index only means no suggestion
  }
  const byId = closest(typed, known, (e) => e.id);
  const byName = closest(
    typed,
    known.filter((e) => e.name !== undefined),
    (e) => e.name!,
  );
  const ids: string[] = [];
  for (const e of [...byId, ...byName]) if (!ids.includes(e.id) && e.id !== typed) ids.push(e.id);
  return ids.slice(0, 3);
}

/** A hint naming the near ids, or undefined when none is near. */
export async function nearIdsHint(ctx: Context, typed: string): Promise<string | undefined> {
  const ids = await nearIds(ctx, typed);
  return ids.length > 0 ? `Did you mean ${orList(ids)}? (known on this machine)` : undefined;
}
