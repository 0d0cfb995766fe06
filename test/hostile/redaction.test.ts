/**
 * Class 7, the key in server text: a server that echoes the key in error bodies (JSON and
 * media, JSON-shaped and plain) never gets it printed on stdout, stderr or written to a file;
 * redaction takes the key whole, so a one-letter key does not mangle words; the mask shows
 * at most 4 characters, none of a short key.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type HostileServer, echoKey, json, startHostileServer } from '../helpers/hostile-server.js';
import { runInProcess } from '../helpers/test-context.js';
import { KEY, allFileText, cli } from './support.js';
import { tempDir } from '../helpers/temp.js';

let server: HostileServer;
beforeAll(async () => (server = await startHostileServer()));
afterAll(() => server.close());
afterEach(() => server.reset());

/** Fails when any 8-character piece of the key shows (whole, or cut at the end of a message). */
function expectNoKey(text: string): void {
  expect(text).not.toContain(KEY.slice(0, 8));
  expect(text).not.toContain(KEY.slice(-8));
}

describe('the key in server text', () => {
  for (const shape of ['json', 'text'] as const) {
    for (const status of [403, 500]) {
      it(`download: a media ${status} echoing the key (${shape}) leaks it nowhere — stderr, the JSON summary, the files`, async () => {
        server.route(/^\/exercise\//, json({ id: 'A', name: 'A', premiumImages: ['start'], premiumVideos: ['clip'] }));
        server.route(/^\/(images|videos)\//, echoKey(status, shape));
        const dir = tempDir();
        const r = await cli(server, ['--verbose', '--retries', '0', 'download', 'A', '--dir', dir, '--format', 'json']);
        expect([3, 6, 7]).toContain(r.code);
        expect(server.count(/^\/(images|videos)\//)).toBeGreaterThan(0);
        expectNoKey(r.stdout);
        expectNoKey(r.stderr);
        expectNoKey(allFileText(dir));
      });
    }

    it(`show and image: a JSON or media error echoing the key (${shape}) leaks it nowhere`, async () => {
      server.route(/^\/exercise\//, echoKey(500, shape));
      const r1 = await cli(server, ['--verbose', '--retries', '0', 'show', 'A', '--format', 'json']);
      expect(r1.code).toBe(6);
      expectNoKey(`${r1.stdout}${r1.stderr}`);
      server.route(/^\/exercise\//, json({ id: 'A', name: 'A', premiumImages: ['start'] }));
      server.route(/^\/images\//, echoKey(401, shape));
      const dir = tempDir();
      const r2 = await cli(server, ['--verbose', '--retries', '0', 'image', 'A', 'start', '-o', `${dir}/a.png`, '--format', 'json']);
      expect(r2.code).toBe(3);
      expectNoKey(`${r2.stdout}${r2.stderr}`);
      expectNoKey(allFileText(dir));
    });
  }

  it('a media error whose JSON spells the key in \\u escapes: the decoded message is redacted too', async () => {
    server.route(/^\/exercise\//, json({ id: 'A', name: 'A', premiumImages: ['start'] }));
    server.route(/^\/images\//, echoKey(500, 'json-escaped'));
    const dir = tempDir();
    const r = await cli(server, ['--retries', '0', 'image', 'A', 'start', '-o', `${dir}/a.png`]);
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/Key \*\*\* is not allowed here/);
    expectNoKey(`${r.stdout}${r.stderr}`);
  });

  it('a one-letter key does not mangle the words of a message that contain its letter', async () => {
    server.route(/^\/exercise\//, json({ error: { code: 'denied', message: 'The API key is not valid' } }, { status: 401 }));
    const r = await cli(server, ['show', 'A'], { env: { EXERCISES_API_KEY: 'k' } });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('The API key is not valid');
  });

  it('the mask shows at most 4 characters of a 9-character key, none of a short one', async () => {
    server.route(/./, json({ exercises: [], pagination: { total: 0, next: null } }));
    for (const key of ['abcdefghi', 'abcdef']) {
      const r = await runInProcess(['--base-url', server.url, 'auth', 'status'], { env: { EXERCISES_API_KEY: key } });
      const shown = `${r.stdout}${r.stderr}`;
      expect(shown).toMatch(/Key:/);
      for (let i = 0; i + 5 <= key.length; i++) expect(shown).not.toContain(key.slice(i, i + 5));
      if (key.length < 8) for (let i = 0; i + 2 <= key.length; i++) expect(shown).not.toContain(key.slice(i, i + 2));
    }
  });
});
