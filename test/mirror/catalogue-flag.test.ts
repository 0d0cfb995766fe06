/**
 * `--catalogue <dir>`: a mirrored directory answers browse and media commands exactly as the
 * server does, in-process and with no key; bad directories and conflicting flags are usage errors.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CatalogueServer, PREMIUM_KEY, startServer } from '../helpers/server.js';
import { runInProcess } from '../helpers/test-context.js';
import { tempDir } from '../helpers/temp.js';

describe('--catalogue', () => {
  let server: CatalogueServer;
  let mirrorDir: string;

  beforeAll(async () => {
    server = await startServer();
    mirrorDir = tempDir('catalogue-flag-');
    const made = await runInProcess([
      '--base-url',
      server.url,
      '--api-key',
      PREMIUM_KEY,
      '--no-cache',
      'mirror',
      mirrorDir,
      '--langs',
      'de-DE,es-ES',
      '--media',
      'images,videos',
    ]);
    expect(made.code).toBe(0);
  });
  afterAll(async () => {
    await server.close();
    rmSync(mirrorDir, { recursive: true, force: true });
  });

  const queries: string[][] = [
    ['query', '--primary-muscle', 'CHEST', '--all', '--format', 'jsonl'],
    ['query', '--name', 'press', '--format', 'json'],
    ['ids', '--all', '--format', 'jsonl'],
    ['show', 'Barbell_Bench_Press', '--format', 'json'],
    ['--lang', 'de-DE', 'show', 'Box_Jump', '--format', 'json'],
    ['image', 'Barbell_Bench_Press', 'start', '-o', '-'],
  ];

  for (const args of queries) {
    it(`answers \`${args.join(' ')}\` exactly as the server does`, async () => {
      const fromServer = await runInProcess(['--base-url', server.url, '--api-key', PREMIUM_KEY, '--no-cache', ...args]);
      const before = server.requests.length;
      const fromMirror = await runInProcess(['--catalogue', mirrorDir, ...args]);
      expect(fromServer.code).toBe(0);
      expect(fromMirror.code).toBe(0);
      expect(fromMirror.stdoutBytes.length).toBeGreaterThan(0);
      expect(fromMirror.stdoutBytes.equals(fromServer.stdoutBytes)).toBe(true);
      // Nothing reached the other server: the catalogue answered in-process.
      expect(server.requests.length).toBe(before);
    });
  }

  it('a media file the catalogue lacks is named as missing from this catalogue, not from the service', async () => {
    const dir = tempDir('catalogue-missing-');
    const r = await runInProcess(['--catalogue', mirrorDir, 'video', 'Plank', 'no-such-clip', '--dir', dir]);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain(`This catalogue has no video "no-such-clip" of exercise Plank (${mirrorDir}).`);
    expect(r.stderr).not.toContain('The service has no');
    // With the live service (here the test server), the service is named.
    const live = await runInProcess(['--base-url', server.url, '--api-key', PREMIUM_KEY, '--no-cache', 'video', 'Plank', 'no-such-clip', '--dir', dir]);
    expect(live.code).toBe(4);
    expect(live.stderr).toContain('The service has no video "no-such-clip" of exercise Plank (404).');
    // The shipped sample says it is the sample.
    const sandbox = await runInProcess(['--sandbox', 'video', 'Plank', 'no-such-clip', '-o', join(dir, 'clip.mp4')]);
    expect(sandbox.code).toBe(4);
    expect(sandbox.stderr).toContain('The sample catalogue (--sandbox) has no video "no-such-clip" of exercise Plank.');
    rmSync(dir, { recursive: true, force: true });
  });

  it('works from EXERCISES_CATALOGUE with no key', async () => {
    const result = await runInProcess(['show', 'Plank', '--format', 'json'], { env: { EXERCISES_CATALOGUE: mirrorDir } });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).id).toBe('Plank');
  });

  it('is a usage error for a missing directory, naming it', async () => {
    const result = await runInProcess(['--catalogue', join(mirrorDir, 'nope'), 'ids']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(join(mirrorDir, 'nope'));
  });

  it('is a usage error for a directory without exercises.jsonl', async () => {
    const result = await runInProcess(['--catalogue', tempDir('not-a-catalogue-'), 'ids']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('exercises.jsonl');
  });

  it('is a usage error with --sandbox or --base-url', async () => {
    expect((await runInProcess(['--catalogue', mirrorDir, '--sandbox', 'ids'])).code).toBe(2);
    expect((await runInProcess(['--catalogue', mirrorDir, '--base-url', server.url, 'ids'])).code).toBe(2);
  });

  it('config set catalogue checks the directory', async () => {
    const bad = await runInProcess(['config', 'set', 'catalogue', tempDir('not-a-catalogue-')]);
    expect(bad.code).toBe(2);
  });
});
