/**
 * Class 13, the cache directory under attack (issue "Nothing lost on disk", cases 8 and 9):
 * `cache clear` racing writers, a symlink loop at `http/`, a file where the cache root should
 * be, a FIFO in place of a content file, `http/` pointed elsewhere through a symlink, and a
 * umask of 000. Clear exits 0 with a count; the rest is exit 6 naming the path, never a crash
 * (exit 1) or a hang; what the tool writes is 0700/0600.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type HostileServer, json, listPage, startHostileServer } from '../helpers/hostile-server.js';
import { runCli } from '../helpers/run-cli.js';
import { KEY, cli, filesUnder, tempDir, timed } from './support.js';

let server: HostileServer;
let home: string;
let root: string;
beforeAll(async () => (server = await startHostileServer()));
afterAll(() => server.close());
beforeEach(() => {
  home = tempDir('hostile-cachedir-');
  root = join(home, '.cache', 'exercises');
  server.route(
    /^\/exercise\/exerciseIds/,
    listPage(
      [
        { id: 'x1', name: 'One' },
        { id: 'x2', name: 'Two' },
      ],
      { total: 2, next: null },
    ),
  );
  server.route(/^\/exercise\/x\d+/, (req, res, s) => json({ id: req.url!.split('/')[2]!.split('?')[0], name: 'Record' })(req, res, s));
});
afterEach(() => {
  server.reset();
  rmSync(home, { recursive: true, force: true });
});

const run = (args: string[]) => cli(server, args, { env: { HOME: home } });

describe('cache clear with writers at work', () => {
  it('exits 0 with a count every time while three processes write the cache', async () => {
    let writing = true;
    const ids = Array.from({ length: 12 }, (_, i) => `x${i}`);
    const writer = async (): Promise<void> => {
      while (writing) await runCli(['--base-url', server.url, '--refresh', 'show', ...ids], { env: { HOME: home, EXERCISES_API_KEY: KEY } });
    };
    const writers = [writer(), writer(), writer()];
    try {
      // The writers at work: their requests reaching the server (a whole `show` of all 12 ids at least).
      await vi.waitUntil(() => server.count(/^\/exercise\/x\d+/) >= ids.length, { timeout: 20_000, interval: 50 });
      for (let i = 0; i < 15; i++) {
        const r = await run(['cache', 'clear']);
        expect(r.code, r.stderr).toBe(0);
        expect(r.stderr).toMatch(/Removed \d+ cache entr(y|ies) from /);
      }
    } finally {
      writing = false;
      await Promise.all(writers);
    }
  }, 120_000);
});

describe('a cache directory that is not what it should be', () => {
  it('a symlink loop at http/: cache info, cache clear and show exit 6 naming it, never 1', async () => {
    mkdirSync(root, { recursive: true });
    symlinkSync(join(root, 'http'), join(root, 'http'));
    for (const args of [
      ['cache', 'info'],
      ['cache', 'clear'],
      ['show', 'x1'],
    ]) {
      const r = await run(args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(6);
      expect(r.stderr).toContain(join(root, 'http'));
    }
  });

  it('a file where the cache root should be: exit 6, never 1', async () => {
    mkdirSync(join(home, '.cache'), { recursive: true });
    writeFileSync(root, 'a file');
    for (const args of [
      ['cache', 'info'],
      ['cache', 'clear'],
    ]) {
      const r = await run(args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(6);
      expect(r.stderr).toMatch(/not a directory/);
    }
  });

  it('http/ pointed at another directory through a symlink is refused (exit 6 naming it), nothing written there', async () => {
    const elsewhere = join(home, 'elsewhere');
    mkdirSync(elsewhere);
    mkdirSync(root, { recursive: true });
    symlinkSync(elsewhere, join(root, 'http'));
    const r = await run(['show', 'x1']);
    expect(r.code, r.stderr).toBe(6);
    expect(r.stderr).toMatch(/Refusing to use .*http: it is a symlink/);
    expect(readdirSync(elsewhere)).toEqual([]);
    expect(server.count(/^\/exercise\//)).toBe(0);
  });

  it('a FIFO in place of an entry file: show and ids neither hang nor serve it; the entry is dropped and asked anew', async () => {
    expect((await run(['show', 'x1', '--json'])).code).toBe(0);
    expect((await run(['ids', '--json'])).code).toBe(0);
    for (const file of filesUnder(join(root, 'http')).filter((f) => f.endsWith('.entry'))) {
      rmSync(join(root, 'http', file));
      execFileSync('mkfifo', [join(root, 'http', file)]);
    }
    const before = server.requests.length;
    const { result: show, ms } = await timed(() => run(['show', 'x1', '--json']));
    expect(show.code, show.stderr).toBe(0);
    expect(JSON.parse(show.stdout)).toMatchObject({ id: 'x1' });
    const ids = await run(['ids', '--json']);
    expect(ids.code, ids.stderr).toBe(0);
    expect(ms).toBeLessThan(10_000);
    expect(server.requests.length - before).toBe(2);
  }, 30_000);
});

describe('private files under any umask', () => {
  it('with umask 000, the store, the ledger and its copy, and the completion index are 0700/0600', async () => {
    const old = process.umask(0);
    try {
      expect((await run(['--budget', '10', 'show', 'x1'])).code).toBe(0);
      expect((await run(['--budget', '10', 'ids'])).code).toBe(0);
    } finally {
      process.umask(old);
    }
    expect(statSync(join(root, 'http')).mode & 0o777).toBe(0o700);
    // Node's compile cache writes its files as the umask lets it, in a directory the launcher makes 0700.
    if (existsSync(join(root, 'compile-cache'))) expect(statSync(join(root, 'compile-cache')).mode & 0o777).toBe(0o700);
    const files = filesUnder(root).filter((f) => !f.startsWith('compile-cache'));
    expect(files).toEqual(expect.arrayContaining(['ledger.json', 'ledger.json.prev', 'completion-ids.tsv']));
    expect(files.some((f) => f.startsWith('http/') && f.endsWith('.entry'))).toBe(true);
    for (const file of files) {
      expect(statSync(join(root, file)).mode & 0o077, file).toBe(0);
    }
    expect(existsSync(join(root, 'ledger.json.lock'))).toBe(false);
  });
});
