/**
 * A cache hit sends nothing and loads no HTTP code: `show` answered from the response cache (the
 * built CLI, bundled) requires no vendor file, neither undici nor the cache rules
 * (http-cache-semantics); a preloaded script lists the files require() loaded. A miss, which
 * writes the entry, loads undici and the cache rules.
 */
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedHome, runCli } from '../helpers/run-cli.js';
import { type CatalogueServer, startServer } from '../helpers/server.js';
import { serverEnv } from '../helpers/fixtures.js';
import { tempDir } from '../helpers/temp.js';

let server: CatalogueServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const TRACE = fileURLToPath(new URL('./fixtures/trace-requires.cjs', import.meta.url));

/** The vendor files (dist/bundle/vendor) a run of the built CLI loaded. */
async function vendorsLoadedBy(args: string[], env: Record<string, string | undefined>) {
  const file = join(tempDir('exercises-trace-'), 'loaded.json');
  const r = await runCli(args, { env: { ...env, NODE_OPTIONS: `--require ${TRACE}`, TRACE_REQUIRES_FILE: file } });
  const loaded = JSON.parse(readFileSync(file, 'utf8')) as string[];
  return { ...r, vendors: loaded.filter((f) => f.includes(join('bundle', 'vendor'))).map((f) => basename(f, '.cjs')) };
}

describe('a cache hit', () => {
  it('loads no HTTP code and sends nothing', async () => {
    const home = isolatedHome();
    const env = { ...serverEnv(server), HOME: home, XDG_CACHE_HOME: join(home, '.cache') };
    const miss = await vendorsLoadedBy(['show', 'Push_Up', '--format', 'json'], env);
    expect(miss.code, miss.stderr).toBe(0);
    // The request went out through undici; the entry is judged by the cache rules to be stored.
    expect(miss.vendors.sort()).toEqual(['http-cache-semantics', 'undici']);

    const before = server.requests.length;
    const hit = await vendorsLoadedBy(['show', 'Push_Up', '--format', 'json'], env);
    expect(hit.code, hit.stderr).toBe(0);
    expect(hit.stdout).toBe(miss.stdout);
    expect(server.requests.length).toBe(before);
    expect(hit.vendors).toEqual([]);
  });
});
