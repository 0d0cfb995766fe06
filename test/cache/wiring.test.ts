/**
 * The response cache wired into the client, against the project's server, counting the
 * requests the server saw: repeated answers cost nothing, --refresh and expiry cost again,
 * no-store and revalidation behave, a corrupt entry is dropped, --offline answers or fails.
 */
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runInProcess } from '../helpers/test-context.js';
import { type CatalogueServer, PREMIUM_KEY, startServer } from '../helpers/server.js';
import { tempDir } from '../helpers/temp.js';

let server: CatalogueServer;
/** Paths answered with Cache-Control: no-store by the intercept. */
const noStorePaths = new Set<string>();
beforeAll(async () => {
  server = await startServer({
    intercept: (req, res) => {
      const path = (req.url ?? '').split('?')[0]!;
      if (noStorePaths.has(path)) {
        const original = res.writeHead.bind(res);
        res.writeHead = ((status: number, headers?: Record<string, string>) =>
          original(status, { ...headers, 'Cache-Control': 'no-store' })) as typeof res.writeHead;
      }
      return false;
    },
  });
});
afterAll(() => server.close());

/** A private HOME, so each test has its own cache and ledger. */
function home(): string {
  return tempDir('exercises-cache-');
}

function run(homeDir: string, args: string[], env: Record<string, string> = {}) {
  return runInProcess(args, { env: { HOME: homeDir, EXERCISES_BASE_URL: server.url, EXERCISES_API_KEY: PREMIUM_KEY, ...env } });
}

/** Requests the server sees while `work` runs. */
async function cost(work: () => Promise<unknown>): Promise<number> {
  const before = server.requests.length;
  await work();
  return server.requests.length - before;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

describe('the response cache in use', () => {
  it('answers a repeated show, query and ids --all at no cost, and --refresh pays again', async () => {
    const h = home();
    const commands = [
      ['show', 'Barbell_Bench_Press', '--format', 'json'],
      ['query', '--muscle', 'chest', '--format', 'jsonl'],
      ['ids', '--all', '--limit', '5', '--format', 'jsonl'],
    ];
    for (const args of commands) {
      let first = '';
      expect(await cost(async () => (first = (await run(h, args)).stdout))).toBeGreaterThan(0);
      let second: { code: number | null; stdout: string } = { code: null, stdout: '' };
      expect(await cost(async () => (second = await run(h, args)))).toBe(0);
      expect(second.code).toBe(0);
      expect(second.stdout).toBe(first);
      expect(await cost(() => run(h, ['--refresh', ...args]))).toBeGreaterThan(0);
    }
  });

  it('serves show by exact name from the record cached by id, and never across languages', async () => {
    const h = home();
    await run(h, ['show', 'Barbell_Bench_Press']);
    const r = await run(h, ['show', 'barbell bench press', '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(await cost(() => run(h, ['show', JSON.parse(r.stdout).name]))).toBe(0);
    expect(await cost(() => run(h, ['show', 'Barbell_Bench_Press', '--lang', 'de-DE']))).toBe(1);
  });

  it('says cache hit, revalidated or miss with --verbose', async () => {
    const h = home();
    expect((await run(h, ['--verbose', 'show', 'Barbell_Back_Squat'])).stderr).toMatch(/^miss: GET \/exercise\/Barbell_Back_Squat$/m);
    expect((await run(h, ['--verbose', 'show', 'Barbell_Back_Squat'])).stderr).toMatch(/^cache hit: GET \/exercise\/Barbell_Back_Squat$/m);
    await run(h, ['config', 'set', 'cache-ttl', '0']);
    expect((await run(h, ['--verbose', 'show', 'Barbell_Back_Squat'])).stderr).toMatch(/^revalidated: GET \/exercise\/Barbell_Back_Squat$/m);
  });

  it('revalidates an expired entry with its ETag: the 304 is one request, the body is served', async () => {
    const h = home();
    const first = await run(h, ['show', 'Barbell_Bench_Press', '--format', 'json']);
    expect((await run(h, ['config', 'set', 'cache-ttl', '0s'])).code).toBe(0);
    const before = server.requests.length;
    const again = await run(h, ['show', 'Barbell_Bench_Press', '--format', 'json']);
    const seen = server.requests.slice(before);
    expect(seen.map((q) => q.status)).toEqual([304]);
    expect(again.stdout).toBe(first.stdout);
  });

  it('expires entries after the time to live', async () => {
    const h = home();
    await run(h, ['config', 'set', 'cache-ttl', '1s']);
    await run(h, ['ids', '--limit', '3']);
    expect(await cost(() => run(h, ['ids', '--limit', '3']))).toBe(0);
    // The clock moved past the time to live instead of waiting it out (timers stay real).
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 1_100);
      expect(await cost(() => run(h, ['ids', '--limit', '3']))).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps nothing answered with no-store', async () => {
    const h = home();
    noStorePaths.add('/exercise/Conventional_Deadlift');
    try {
      await run(h, ['show', 'Conventional_Deadlift']);
      expect(await cost(() => run(h, ['show', 'Conventional_Deadlift']))).toBe(1);
    } finally {
      noStorePaths.delete('/exercise/Conventional_Deadlift');
    }
  });

  it('drops a corrupt entry and asks the service again', async () => {
    const h = home();
    await run(h, ['show', 'Barbell_Bench_Press']);
    const content = filesUnder(join(h, '.cache', 'exercises', 'http')).filter((f) => f.endsWith('.entry'));
    expect(content.length).toBeGreaterThan(0);
    for (const file of content) writeFileSync(file, '{"broken":');
    const r = await run(h, ['show', 'Barbell_Bench_Press', '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).id).toBe('Barbell_Bench_Press');
    expect(server.requests.at(-1)?.path).toBe('/exercise/Barbell_Bench_Press');
  });

  it('--offline answers from the cache and fails with exit 6 naming what is missing', async () => {
    const h = home();
    await run(h, ['show', 'Barbell_Bench_Press']);
    let hit: Awaited<ReturnType<typeof run>> | undefined;
    expect(await cost(async () => (hit = await run(h, ['--offline', 'show', 'Barbell_Bench_Press', '--format', 'json'])))).toBe(0);
    expect(hit!.code).toBe(0);
    let miss: Awaited<ReturnType<typeof run>> | undefined;
    expect(await cost(async () => (miss = await run(h, ['--offline', 'show', 'Barbell_Back_Squat'])))).toBe(0);
    expect(miss!.code).toBe(6);
    expect(miss!.stderr).toContain('GET /exercise/Barbell_Back_Squat');
  });

  it('--no-cache neither reads nor writes the cache', async () => {
    const h = home();
    await run(h, ['--no-cache', 'show', 'Barbell_Bench_Press']);
    expect(await cost(() => run(h, ['--no-cache', 'show', 'Barbell_Bench_Press']))).toBe(1);
    expect(await cost(() => run(h, ['show', 'Barbell_Bench_Press']))).toBe(1);
  });

  it('--no-cache says so with --verbose, page by page, and still refuses a malformed page', async () => {
    const h = home();
    const paged = await run(h, ['--verbose', '--no-cache', 'ids', '--max', '10', '--limit', '5', '--format', 'jsonl']);
    expect(paged.code).toBe(0);
    expect(paged.stdout.trim().split('\n')).toHaveLength(10);
    expect(paged.stderr.match(/^miss \(--no-cache\): GET \/exercise\/exerciseIds$/gm)).toHaveLength(2);
    const broken = await startServer({
      intercept: (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ exercises: [{ name: 'no id' }], pagination: { total: 1 } }));
        return true;
      },
    });
    try {
      const bad = await runInProcess(['--no-cache', 'ids'], { env: { HOME: h, EXERCISES_BASE_URL: broken.url, EXERCISES_API_KEY: PREMIUM_KEY } });
      expect(bad.code).toBe(6);
      expect(bad.stderr).toMatch(/exerciseIds/);
    } finally {
      await broken.close();
    }
  });

  it('writes no key text anywhere in the cache directory', async () => {
    const h = home();
    await run(h, ['show', 'Barbell_Bench_Press']);
    await run(h, ['ids', '--all', '--limit', '10']);
    await run(h, ['quota']);
    const files = filesUnder(join(h, '.cache', 'exercises'));
    expect(files.length).toBeGreaterThan(2);
    for (const file of files) {
      if (statSync(file).size === 0) continue;
      expect(readFileSync(file).toString('latin1'), file).not.toContain(PREMIUM_KEY);
    }
  });
});

describe('ids the service answered with reach shell completion', () => {
  it('adds the ids and names of fetched pages to the id index, once, at exit', async () => {
    const h = home();
    const listed = await run(h, ['ids', '--max', '5', '--limit', '5', '--format', 'jsonl']);
    expect(listed.code).toBe(0);
    const ids = listed.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).id as string);
    const { readIdIndex } = await import('../../src/completion/id-index.js');
    const { cacheRoot } = await import('../../src/cache/store-files.js');
    const index = readIdIndex(cacheRoot({ HOME: h }));
    expect(index.map((e) => e.id)).toEqual(ids);
    expect(index.every((e) => typeof e.name === 'string' && e.name !== '')).toBe(true);
  });
});
