/**
 * `exercises mirror`, `serve` and `completion`: run(options, ctx) in-process. The mirror reads
 * from the fake transport; serve listens on 127.0.0.1 (it is a server) until the run is aborted.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run as completion } from '../../src/commands/completion.js';
import { mirrorOptions, run as mirror } from '../../src/commands/mirror.js';
import { parseKeys, run as serve } from '../../src/commands/serve.js';
import { Transport } from '../../src/http/transport.js';
import { pngBytes } from '../media/media-catalogue.js';
import { tempDir } from '../helpers/temp.js';
import { runCommand, testContext } from '../helpers/test-context.js';
import { PLANK, fakeRun, page } from './support.js';

describe('mirror run()', () => {
  it('writes the records and the media the service lists into a catalogue directory', async () => {
    const t = fakeRun({ globals: { quiet: true } });
    t.http.json((p) => p.startsWith('/exercise/exerciseIds'), page([PLANK]));
    t.http.json('/exercise/Plank', PLANK);
    const start = pngBytes(4_000);
    t.http.bytes('/images/Plank/premium/start.png', start, 'image/png');
    const dir = join(tempDir('commands-mirror-'), 'mirror');
    const r = await runCommand(mirror, mirrorOptions(dir, { media: 'images' }, false), t);
    expect(r.code, r.stderr).toBe(0);
    const lines = readFileSync(join(dir, 'exercises.jsonl'), 'utf8').trim().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { id: string }).id)).toEqual(['Plank']);
    expect(readFileSync(join(dir, 'images', 'Plank', 'premium', 'start.png')).equals(start)).toBe(true);
  });

  it('a 401 on the listing is exit 3 and writes no catalogue', async () => {
    const t = fakeRun();
    t.http.error((p) => p.startsWith('/exercise/exerciseIds'), 401, 'UNAUTHORIZED', 'Bad key.');
    const dir = join(tempDir('commands-mirror-'), 'mirror');
    const r = await runCommand(mirror, mirrorOptions(dir, {}, false), t);
    expect(r.code).toBe(3);
    expect(existsSync(join(dir, 'exercises.jsonl'))).toBe(false);
  });

  it('--media with an unknown kind is a usage error (exit 2)', () => {
    expect(() => mirrorOptions('x', { media: 'audio' }, false)).toThrow(/--media takes images, videos or both/);
  });
});

describe('serve run()', () => {
  it('serves the sample catalogue on a free port until the run is aborted', async () => {
    const t = testContext();
    const running = runCommand(serve, { host: '127.0.0.1', port: 0 }, t);
    const url = /Listening on (\S+)/.exec(await t.stdout.waitFor(/Listening on \S+\n/))![1]!;
    const client = new Transport({ baseUrl: url, apiKey: 'sandbox-premium', settings: { timeout: 5_000, retries: 0 } });
    try {
      const body = (await client.getJson('/exercise/exerciseIds', { limit: '1' })) as { exercises: unknown[] };
      expect(body.exercises).toHaveLength(1);
    } finally {
      await client.close();
    }
    t.abort();
    const r = await running;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('Keys: sandbox-free (free plan), sandbox-premium (premium plan).');
    const log = r.stderr.split('\n').filter((l) => l.includes(' GET '));
    expect(log).toEqual([expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z GET \/exercise\/exerciseIds\?limit=1 200 /)]);
    expect(log.join('\n')).not.toContain('sandbox-premium'); // the request log never shows a key
  });

  it('a port already in use is a usage error (exit 2)', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const r = await runCommand(serve, { host: '127.0.0.1', port }, testContext());
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`Port ${port} on 127.0.0.1 is already in use.`);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it('--key takes KEY:PLAN with a known plan, else a usage error', () => {
    expect(parseKeys(['team:premium', 'guest:free:Guest'])).toEqual({ team: { plan: 'premium' }, guest: { plan: 'free', label: 'Guest' } });
    expect(() => parseKeys(['team:gold'])).toThrow(/--key must be KEY:PLAN/);
  });
});

describe('completion run()', () => {
  for (const shell of ['bash', 'zsh', 'fish'] as const) {
    it(`${shell}: prints a script that completes exercises, without a request`, async () => {
      const t = fakeRun();
      const r = await runCommand(completion, { shell }, t);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('exercises');
      expect(r.stdout.length).toBeGreaterThan(200);
      expect(t.http.requests()).toEqual([]);
    });
  }
});
