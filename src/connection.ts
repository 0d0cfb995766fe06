/** Where this run's requests go: a catalogue (--sandbox's sample, --catalogue) answered in-process, or the base URL and key of the settings. */
import { join, resolve } from 'node:path';
import { cacheRoot } from './cache/store-files.js';
import type { Dispatcher } from 'undici';
import type { Connection, Env, GlobalOptions } from './context.js';
import { type Resolved, type Settings, catalogueInForce } from './config/settings.js';
import { AuthError, UsageError } from './errors.js';
import { catalogueDirProblem } from './catalogue/catalogue-dir.js';
import { readStoredConfig } from './config/parsers.js';
import { inProcessDispatcher } from './server/in-process.js';
import { sampleCatalogueDir, SANDBOX_API_KEY } from './server/sandbox.js';

export function decideConnection({ settings, globals, env }: { settings: Settings; globals: GlobalOptions; env: Env }): Connection {
  const catalogue = catalogueDir(catalogueInForce({ globals, env, stored: readStoredConfig(env) }));
  // A local catalogue's single records are read through an index in the cache directory.
  const recordIndexDir = join(cacheRoot(env), 'catalogue-records');
  if (catalogue || globals.sandbox) return answeredLocally(catalogue, recordIndexDir);
  const { baseUrl, apiKey, from } = settings;
  return {
    baseUrl,
    baseUrlSource: from.baseUrl.source,
    ...(from.baseUrl.origin ? { baseUrlOrigin: from.baseUrl.origin } : {}),
    ...(apiKey ? { apiKey } : {}),
    keySource: from.apiKey.source,
    ...(from.apiKey.origin ? { keyOrigin: from.apiKey.origin } : {}),
  };
}

/** The base URL of an in-process catalogue: port 0 on loopback, where nothing listens, should a request ever miss the dispatcher. */
const IN_PROCESS_BASE_URL = 'http://127.0.0.1:0';

/** The catalogue in `dir` (the sample without one) answered in-process, with the premium key. */
function answeredLocally(dir: string | undefined, recordIndexDir: string): Connection {
  const dispatcher = inProcessDispatcher({ dir: dir ?? sampleCatalogueDir(), recordIndexDir });
  return {
    baseUrl: IN_PROCESS_BASE_URL,
    dispatcher: dispatcher as unknown as Dispatcher,
    baseUrlSource: 'sandbox',
    apiKey: SANDBOX_API_KEY,
    keySource: 'sandbox',
    local: true,
    ...(dir ? { catalogue: dir } : {}),
  };
}

/** The catalogue directory in force, absolute and holding exercises.jsonl; else a usage error naming where it came from. */
function catalogueDir(inForce: Resolved<string> | undefined): string | undefined {
  if (!inForce) return undefined;
  const dir = inForce.value!;
  const problem = catalogueDirProblem(dir);
  if (problem) {
    throw new UsageError(`${problem} (from ${inForce.origin ?? 'the stored catalogue setting'}).`, {
      hint: 'A catalogue directory holds exercises.jsonl (one record per line); `exercises mirror <dir>` writes one.',
    });
  }
  return resolve(dir);
}

/** The monthly budget of a connection: none for local answers (they spend no quota), else the one in force. */
export function budgetFor(conn: Pick<Connection, 'local'>, settings: Pick<Settings, 'budget'>): number | null {
  return conn.local ? null : (settings.budget ?? null);
}

/** The connection, which must include a key: else AuthError naming the ways to give one. */
export function requireKey(conn: Connection): Connection & { apiKey: string } {
  const apiKey = conn.apiKey;
  if (!apiKey) {
    throw new AuthError('No API key: set EXERCISES_API_KEY, store one with `exercises auth login`, or pass --api-key.', {
      hint: 'To try every command without a key or network, add --sandbox (a built-in sample catalogue).',
    });
  }
  return { ...conn, apiKey };
}
