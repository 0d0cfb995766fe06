/**
 * The launcher sets V8's --liftoff-only when undici is loaded (bin/exercises.js says why). A V8
 * flag set at run time changes the hash V8 checks code caches against, so this pins down that
 * the bundle's code cache of a command that sends a request is made and read under the same
 * flags, and so is undici's own: a second run accepts both (the launcher rewrites a rejected
 * cache, so the file would change).
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedHome, runCli } from '../helpers/run-cli.js';
import { type CatalogueServer, startServer } from '../helpers/server.js';
import { serverEnv } from '../helpers/fixtures.js';

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
    const cacheDir = join(home, '.cache', 'exercises', 'code-cache');
    // The bundle's cache (made before the flag is set) and undici's (made under it).
    const files = ['cli.cjs.show.v8', 'vendor-undici.cjs.v8'].map((name) => join(cacheDir, name));

    const first = await runCli(args, { env });
    expect(first.code).toBe(0);
    const made = files.map((file) => ({ stat: statSync(file), bytes: readFileSync(file) }));

    const second = await runCli(args, { env });
    expect(second.code).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    for (const [i, file] of files.entries()) {
      const after = statSync(file);
      // Not rewritten: same file (a rewrite renames a new one into place), same bytes.
      expect(after.ino, file).toBe(made[i]!.stat.ino);
      expect(after.mtimeMs, file).toBe(made[i]!.stat.mtimeMs);
      expect(readFileSync(file).equals(made[i]!.bytes), file).toBe(true);
    }
  });
});
