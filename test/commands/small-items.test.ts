/** Small things a new user trips on: a free key asking for media, the --lang fallback note. */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FREE_KEY, type CatalogueServer, startServer } from '../helpers/server.js';
import { runInProcess } from '../helpers/test-context.js';
import { serverEnv } from '../helpers/fixtures.js';
import { tempDir } from '../helpers/temp.js';

let server: CatalogueServer;
let dir: string;

beforeAll(async () => {
  server = await startServer();
  dir = tempDir('exercises-small-');
});

afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('small items', () => {
  it('a free key asking for an image is the plan (exit 3), not "not found"', async () => {
    const r = await runInProcess(['image', 'Push_Up', '--dir', dir], { env: serverEnv(server, { EXERCISES_API_KEY: FREE_KEY }) });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/Your plan does not include premium images/);
    expect(r.stderr).toContain('premium plan key');
  });
});

describe('--verbose', () => {
  it('says which service and key it uses once, in one spelling', async () => {
    const r = await runInProcess(['ids', '--limit', '1', '--verbose'], { env: serverEnv(server) });
    expect(r.code).toBe(0);
    expect(r.stderr.match(/^using /gm)).toHaveLength(1);
    expect(r.stderr).not.toMatch(/\bUsing\b/);
  });
});

describe('download --dry-run', () => {
  it('is aligned on a terminal and tsv in a pipe', async () => {
    const args = ['download', 'Push_Up', 'Plank', '--dir', dir, '--dry-run'];
    const tty = await runInProcess(args, { env: serverEnv(server), tty: true });
    expect(tty.code).toBe(0);
    const lines = tty.stdout.trim().split('\n');
    expect(lines.length).toBeGreaterThan(1);
    expect(tty.stdout).not.toContain('\t');
    const starts = lines.map((l) => l.indexOf(dir));
    expect(new Set(starts).size).toBe(1); // the path column starts at one place
    const pipe = await runInProcess(args, { env: serverEnv(server) });
    expect(pipe.stdout.split('\n')[0]).toContain('\t');
  });
});

describe('--lang the service does not have', () => {
  const NOTE = /^Note: the service has no fr-FR text; the answer is in en-GB\.$/m;
  const notes = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('Note:'));

  it('says so once on stderr, naming both languages; stdout is what English gives', async () => {
    const english = await runInProcess(['query', '--muscle', 'chest', '--all', '--limit', '2'], { env: serverEnv(server) });
    const french = await runInProcess(['query', '--muscle', 'chest', '--all', '--limit', '2', '--lang', 'fr-FR'], { env: serverEnv(server) });
    expect(french.code).toBe(0);
    expect(notes(french.stderr)).toHaveLength(1); // several pages, one note
    expect(french.stderr).toMatch(NOTE);
    expect(french.stdout).toBe(english.stdout);
  });

  it('says nothing when the language is had (any region of it), nor with -q', async () => {
    for (const lang of ['en', 'en-US', 'de-DE', 'de']) {
      const r = await runInProcess(['ids', '--limit', '3', '--lang', lang], { env: serverEnv(server) });
      expect(r.code, lang).toBe(0);
      expect(notes(r.stderr), lang).toEqual([]);
    }
    const quiet = await runInProcess(['ids', '--limit', '3', '--lang', 'fr-FR', '-q'], { env: serverEnv(server) });
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).toBe('');
    const none = await runInProcess(['ids', '--limit', '3'], { env: serverEnv(server) });
    expect(notes(none.stderr)).toEqual([]);
  });

  it("names the record's own fallback: an untranslated exercise asked in German", async () => {
    const r = await runInProcess(['show', 'Cable_Triceps_Pushdown', '--lang', 'de-DE'], { env: serverEnv(server) });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^Note: the service has no de-DE text; the answer is in en-GB\.$/m);
  });

  it('keeps --json stdout pure JSON (the note is on stderr alone)', async () => {
    const r = await runInProcess(['ids', '--limit', '2', '--lang', 'fr-FR', '--json'], { env: serverEnv(server) });
    expect(r.code).toBe(0);
    expect(() => JSON.parse(r.stdout)).not.toThrow();
    expect(r.stdout).not.toContain('Note');
    expect(r.stderr).toMatch(NOTE);
  });

  it('says it on a cache hit too: the cache keeps the language the answer came in', async () => {
    const env = serverEnv(server, { HOME: join(dir, 'lang-home') });
    const args = ['ids', '--limit', '2', '--lang', 'fr-FR'];
    const first = await runInProcess(args, { env });
    const before = server.requests.length;
    const hit = await runInProcess([...args, '--verbose'], { env });
    expect(server.requests.length).toBe(before); // answered from the cache
    expect(hit.stderr).toMatch(/cache hit/);
    expect(hit.stderr).toMatch(NOTE);
    expect(hit.stdout).toBe(first.stdout);
    const offline = await runInProcess([...args, '--offline'], { env });
    expect(offline.stderr).toMatch(NOTE);
  });
});

describe('media summaries and messages', () => {
  /** A mirror whose records list media it does not hold. */
  function mirrorWithoutMedia(): string {
    const mirror = join(dir, 'mirror-without-media');
    mkdirSync(mirror, { recursive: true });
    const pushUp = readFileSync(new URL('../../sample/exercises.jsonl', import.meta.url), 'utf8')
      .split('\n')
      .find((l) => l.includes('"id":"Push_Up"'))!;
    writeFileSync(join(mirror, 'exercises.jsonl'), `${pushUp}\n`);
    return mirror;
  }

  it('a mirror lacking a file says the catalogue has none, not the service', async () => {
    const mirror = mirrorWithoutMedia();
    const r = await runInProcess(['--catalogue', mirror, 'video', 'Push_Up', '--dir', join(dir, 'mirror-out')]);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain(`This catalogue has no video "demo" of exercise Push_Up (${mirror}).`);
    expect(r.stderr).not.toContain('The service has no');
  });

  it('the summary says where the files went, and on a terminal its failure lines fit the width', async () => {
    const out = join(dir, 'summary-out');
    const ok = await runInProcess(['download', 'Plank', '--dir', out], { env: serverEnv(server) });
    expect(ok.code).toBe(0);
    expect(ok.stderr).toMatch(new RegExp(`files in ${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.`));
    const failed = await runInProcess(['--catalogue', mirrorWithoutMedia(), 'download', 'Push_Up', '--dir', out], { tty: true, columns: 80 });
    expect(failed.code).toBe(7);
    // What stays on screen: each line after the progress bar's last redraw (\r), erase codes left out.
    const lines = failed.stderr.split('\n').map((l) =>
      l
        .split('\r')
        .pop()!
        .replace(/\u001b\[K/g, ''),
    );
    // Within the width, but for a word (the long temp path) wider than any line, which stands alone.
    for (const line of lines) if (line.trim().includes(' ')) expect(line.length, line).toBeLessThanOrEqual(80);
    expect(lines.filter((l) => l.startsWith('  failed: '))).toHaveLength(3);
    expect(lines.some((l) => l.startsWith('    '))).toBe(true); // a failure continued under its line
  });
});
