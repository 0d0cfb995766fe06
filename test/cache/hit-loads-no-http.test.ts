/**
 * A cache hit loads no HTTP code: `show` answered from the response cache (the built CLI,
 * bundled) loads neither undici nor any other vendor file, not even the cache rules
 * (http-cache-semantics): a preloaded script lists the files require() loaded, vendor files
 * included, and undici (which the launcher compiles itself) leaves its V8 code-cache file when
 * loaded. A miss, which writes the entry, loads the cache rules and nothing else beside undici
 * (the lock is the tool's own, src/util/file-lock.ts). Its answer is written into
 * the pipe without creating process.stdout, so node:net stays unloaded too.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
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

/** The vendor files (dist/bundle/vendor) and the built-ins a run of the built CLI loaded. */
async function vendorsLoadedBy(args: string[], env: Record<string, string | undefined>) {
  const dir = tempDir('exercises-trace-');
  const [file, builtinsFile] = [join(dir, 'loaded.json'), join(dir, 'builtins.json')];
  const r = await runCli(args, { env: { ...env, NODE_OPTIONS: `--require ${TRACE}`, TRACE_REQUIRES_FILE: file, TRACE_BUILTINS_FILE: builtinsFile } });
  const loaded = JSON.parse(readFileSync(file, 'utf8')) as string[];
  const builtins = JSON.parse(readFileSync(builtinsFile, 'utf8')) as string[];
  return { ...r, builtins, vendors: loaded.filter((f) => f.includes(join('bundle', 'vendor'))).map((f) => basename(f, '.cjs')) };
}

describe('a cache hit', () => {
  it('loads no HTTP code and sends nothing', async () => {
    const home = isolatedHome();
    const env = { ...serverEnv(server), HOME: home, XDG_CACHE_HOME: join(home, '.cache') };
    const miss = await vendorsLoadedBy(['show', 'Push_Up', '--format', 'json'], env);
    expect(miss.code, miss.stderr).toBe(0);
    // The entry is judged by the cache rules to be stored; the ledger's lock is the tool's own (util/file-lock.ts).
    expect(miss.vendors).toEqual(['http-cache-semantics']);
    // The request went out over a socket (the trace sees built-ins when they are used).
    expect(miss.builtins).toContain('net');
    const undiciTrace = join(home, '.cache', 'exercises', 'code-cache', 'vendor-undici.cjs.v8');
    expect(existsSync(undiciTrace)).toBe(true);
    rmSync(undiciTrace);

    const before = server.requests.length;
    const hit = await vendorsLoadedBy(['show', 'Push_Up', '--format', 'json'], env);
    expect(hit.code, hit.stderr).toBe(0);
    expect(hit.stdout).toBe(miss.stdout);
    expect(server.requests.length).toBe(before);
    expect(hit.vendors).toEqual([]);
    expect(existsSync(undiciTrace)).toBe(false);
    // Its answer goes into the pipe without process.stdout, which would load node:net (src/output/streams.ts).
    expect(hit.builtins).not.toContain('net');
    expect(hit.builtins).not.toContain('tty');
  });
});
