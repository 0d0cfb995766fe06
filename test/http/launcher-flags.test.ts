/**
 * The launcher sets V8's --liftoff-only when undici is loaded (bin/exercises.js says why). A V8
 * flag set at run time changes the hash V8 checks code caches against, so this pins down that
 * the bundle's code cache of a command that sends a request is made and read under the same
 * flags: a second run accepts it (the launcher rewrites a rejected cache, so the file would change).
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedHome, runCli } from '../helpers/run-cli.js';
import { type CatalogueServer, startServer } from '../helpers/server.js';
import { serverEnv } from '../client/fixtures.js';

let server: CatalogueServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

describe('launcher and V8 flags', () => {
  it('keeps the code cache of a command that sends a request valid from one run to the next', async () => {
    const home = isolatedHome();
    const env = { ...serverEnv(server), HOME: home, XDG_CACHE_HOME: join(home, '.cache') };
    const args = ['show', 'Push_Up', '--format', 'json'];
    const cacheFile = join(home, '.cache', 'exercises', 'code-cache', 'cli.cjs.show.v8');

    const first = await runCli(args, { env });
    expect(first.code).toBe(0);
    const made = statSync(cacheFile);
    const bytes = readFileSync(cacheFile);

    const second = await runCli(args, { env });
    expect(second.code).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    const after = statSync(cacheFile);
    // Not rewritten: same file (a rewrite renames a new one into place), same bytes.
    expect(after.ino).toBe(made.ino);
    expect(after.mtimeMs).toBe(made.mtimeMs);
    expect(readFileSync(cacheFile).equals(bytes)).toBe(true);
  });
});
