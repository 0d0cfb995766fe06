/**
 * The launcher (bin/exercises.js) keeps V8's code cache in the user cache directory. A run
 * must give the same answer with no cache, with a fresh one, and with a damaged one.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
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

describe('launcher code cache', () => {
  it('writes a cache per command, and a missing, fresh or damaged cache gives the same output', async () => {
    const home = isolatedHome();
    const env = { ...serverEnv(server), HOME: home, XDG_CACHE_HOME: join(home, '.cache') };
    const args = ['show', 'Push_Up', '--format', 'json'];

    const cold = await runCli(args, { env });
    expect(cold.code).toBe(0);
    const cacheDir = join(home, '.cache', 'exercises', 'code-cache');
    const files = readdirSync(cacheDir);
    expect(files).toContain('cli.cjs.show.v8');
    const cacheFile = join(cacheDir, 'cli.cjs.show.v8');
    expect(readFileSync(cacheFile).length).toBeGreaterThan(1000);

    const warm = await runCli(args, { env });
    expect(warm.code).toBe(0);
    expect(warm.stdout).toBe(cold.stdout);

    // The key line kept, the compiled data replaced by garbage: V8 must reject it, not crash.
    const stored = readFileSync(cacheFile);
    const keyEnd = stored.indexOf(0x0a) + 1;
    writeFileSync(cacheFile, Buffer.concat([stored.subarray(0, keyEnd), Buffer.alloc(stored.length - keyEnd, 0x5a)]));
    const damaged = await runCli(args, { env });
    expect(damaged.code).toBe(0);
    expect(damaged.stdout).toBe(cold.stdout);
    expect(damaged.stderr).toBe('');

    // A file that is not a cache at all.
    writeFileSync(cacheFile, 'not a cache');
    const junk = await runCli(args, { env });
    expect(junk.code).toBe(0);
    expect(junk.stdout).toBe(cold.stdout);
  });

  it('names the cache after the command past the global flags, apart when answered in-process', async () => {
    const home = isolatedHome();
    const env = { ...serverEnv(server), HOME: home, XDG_CACHE_HOME: join(home, '.cache') };
    const cacheDir = join(home, '.cache', 'exercises', 'code-cache');
    const cliCaches = (): string[] =>
      readdirSync(cacheDir)
        .filter((f) => f.startsWith('cli.cjs.'))
        .sort();

    // A global flag and its value before the command: still the command's cache.
    expect((await runCli(['--format', 'json', '--retries', '1', 'ids', '--limit', '2'], { env })).code).toBe(0);
    expect(cliCaches()).toEqual(['cli.cjs.ids.v8']);
    // In-process, other functions run: a cache of its own.
    expect((await runCli(['--sandbox', 'ids', '--limit', '2'], { env })).code).toBe(0);
    expect(cliCaches()).toEqual(['cli.cjs.ids.local.v8', 'cli.cjs.ids.v8']);
    // --json may take the next word as its value, so the command is not known: the default cache.
    expect((await runCli(['--json', 'show', 'Push_Up'], { env })).code).toBe(0);
    expect(cliCaches()).toEqual(['cli.cjs.default.v8', 'cli.cjs.ids.local.v8', 'cli.cjs.ids.v8']);
    // A word that names no command names no file.
    expect((await runCli(['--quiet', 'nonsense'], { env })).code).not.toBe(0);
    expect(cliCaches()).toEqual(['cli.cjs.default.v8', 'cli.cjs.ids.local.v8', 'cli.cjs.ids.v8']);
  });

  it('runs when the cache directory cannot be written', async () => {
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
