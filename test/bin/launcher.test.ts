/**
 * The launcher (bin/exercises.js) keeps Node's compile cache in the user cache directory (Node
 * 22.1 and later). A run must give the same answer with no cache, with a fresh one and with a
 * damaged one, keep the directory to the user alone, and run when it cannot be made.
 */
import * as nodeModule from 'node:module';
import { readdirSync, statSync, writeFileSync } from 'node:fs';
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

/** module.enableCompileCache: Node 22.1 and later (the types are Node 20's). */
const HAS_COMPILE_CACHE = typeof (nodeModule as { enableCompileCache?: unknown }).enableCompileCache === 'function';

/** Every file under `dir`. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('launcher compile cache', () => {
  it('gives the same output with no cache, a fresh one and a damaged one; the directory is 0700', async (ctx) => {
    if (!HAS_COMPILE_CACHE) ctx.skip('this Node has no compile cache (module.enableCompileCache: Node 22.1 and later)');
    const home = isolatedHome();
    const env = { ...serverEnv(server), HOME: home, XDG_CACHE_HOME: join(home, '.cache') };
    const args = ['show', 'Push_Up', '--format', 'json'];

    const cold = await runCli(args, { env });
    expect(cold.code, cold.stderr).toBe(0);
    const cacheDir = join(home, '.cache', 'exercises', 'compile-cache');
    expect(statSync(cacheDir).mode & 0o777).toBe(0o700);
    const files = filesUnder(cacheDir);
    expect(files.length).toBeGreaterThan(0);

    const warm = await runCli(args, { env });
    expect(warm.code).toBe(0);
    expect(warm.stdout).toBe(cold.stdout);

    // Every cache file replaced by garbage of its own length, then by a few bytes: Node must reject them, not crash.
    for (const junk of [(file: string) => Buffer.alloc(statSync(file).size, 0x5a), () => Buffer.from('not a cache')]) {
      for (const file of filesUnder(cacheDir)) writeFileSync(file, junk(file));
      const damaged = await runCli(args, { env });
      expect(damaged.code).toBe(0);
      expect(damaged.stdout).toBe(cold.stdout);
      expect(damaged.stderr).toBe('');
    }
  });

  it('runs when the cache directory cannot be made', async () => {
    const home = isolatedHome();
    // XDG_CACHE_HOME is a file: the cache directory can never be made.
    const blocker = join(home, 'not-a-dir');
    writeFileSync(blocker, '');
    const r = await runCli(['show', 'Push_Up', '--format', 'json'], { env: { ...serverEnv(server), HOME: home, XDG_CACHE_HOME: blocker } });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).id).toBe('Push_Up');
    expect(r.stderr).toBe('');
  });
});
