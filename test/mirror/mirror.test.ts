/**
 * `exercises mirror <dir>` against the project's catalogue server: the round trip to the
 * sample, the requests it costs (first run, rerun, languages), and a Ctrl-C mid-run resumed
 * with no request repeated.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sampleCatalogueDir } from '../../src/server/sandbox.js';
import { type CatalogueServer, PREMIUM_KEY, startServer } from '../helpers/server.js';
import { runInProcess } from '../helpers/test-context.js';
import { tempDirsPerTest } from '../helpers/temp.js';

const SAMPLE = sampleCatalogueDir();
const PUBLIC_DOMAIN = join(process.cwd(), '..', 'shared', 'catalogues', 'public-domain');

function readCatalogue(dir: string): Map<string, Record<string, unknown>> {
  const lines = readFileSync(join(dir, 'exercises.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
  return new Map(
    lines.map((l) => {
      const entry = JSON.parse(l) as Record<string, unknown>;
      return [entry.id as string, entry];
    }),
  );
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(relative(dir, p));
    }
  };
  walk(dir);
  return out.sort();
}

const recordRequests = (server: CatalogueServer): string[] =>
  server.requests
    .filter((r) => r.path.startsWith('/exercise/') && r.path !== '/exercise/exerciseIds' && r.path !== '/exercise/query')
    .map((r) => `${r.path}?${r.query}`);
const listingRequests = (server: CatalogueServer): number => server.requests.filter((r) => r.path === '/exercise/exerciseIds').length;

describe('mirror', () => {
  let server: CatalogueServer;
  const temp = tempDirsPerTest('mirror-test-');
  const mirror = (dir: string, ...args: string[]) => runInProcess(['--base-url', server.url, '--api-key', PREMIUM_KEY, '--no-cache', 'mirror', dir, ...args]);

  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.close();
  });
  afterEach(() => {
    server.requests.length = 0;
  });

  it('mirrors the sample, languages and media included, into a directory equal to it', async () => {
    const dir = temp();
    const result = await mirror(dir, '--langs', 'de-DE,es-ES', '--media', 'images,videos');
    expect(result.stderr).toContain('67 ids listed');
    expect(result.code).toBe(0);
    const want = readCatalogue(SAMPLE);
    const got = readCatalogue(dir);
    expect(got.size).toBe(want.size);
    // A premium key gets both media lists on every record, empty ones included; the sample omits empty ones.
    const withLists = (entry: Record<string, unknown>) => ({ premiumImages: [], premiumVideos: [], ...entry });
    for (const [id, entry] of want) expect(got.get(id), id).toEqual(withLists(entry));
    for (const folder of ['images', 'videos']) {
      const files = filesUnder(join(SAMPLE, folder));
      expect(files.length).toBeGreaterThan(0);
      expect(filesUnder(join(dir, folder))).toEqual(files);
      for (const f of files) expect(readFileSync(join(dir, folder, f)).equals(readFileSync(join(SAMPLE, folder, f))), f).toBe(true);
    }
  });

  it('costs ceil(N/25) + N requests the first time, only the listing on a rerun, and one more per language per exercise', async () => {
    const dir = temp();
    expect((await mirror(dir)).code).toBe(0);
    expect(listingRequests(server)).toBe(Math.ceil(67 / 25));
    expect(recordRequests(server)).toHaveLength(67);
    expect(server.requests).toHaveLength(Math.ceil(67 / 25) + 67);

    server.requests.length = 0;
    expect((await mirror(dir)).code).toBe(0);
    expect(server.requests).toHaveLength(Math.ceil(67 / 25));

    server.requests.length = 0;
    expect((await mirror(dir, '--langs', 'de-DE')).code).toBe(0);
    expect(server.requests).toHaveLength(Math.ceil(67 / 25) + 67);
    expect(recordRequests(server).every((r) => r.includes('lang=de-DE'))).toBe(true);
    const german = (c: Map<string, Record<string, unknown>>): string[] =>
      [...c.values()]
        .filter((e) => (e.translations as Record<string, unknown> | undefined)?.['de-DE'])
        .map((e) => e.id as string)
        .sort();
    expect(german(readCatalogue(dir)).length).toBeGreaterThan(0);
    expect(german(readCatalogue(dir))).toEqual(german(readCatalogue(SAMPLE)));
  });

  it('--dry-run says the cost and fetches no record', async () => {
    const dir = temp();
    const result = await mirror(dir, '--dry-run', '--langs', 'de-DE');
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('67 record requests and 67 translation requests');
    expect(recordRequests(server)).toHaveLength(0);
    expect(existsSync(join(dir, 'exercises.jsonl'))).toBe(false);
  });

  it('with --refresh fetches every record again', async () => {
    const dir = temp();
    await mirror(dir);
    server.requests.length = 0;
    expect((await runInProcess(['--base-url', server.url, '--api-key', PREMIUM_KEY, '--no-cache', '--refresh', 'mirror', dir])).code).toBe(0);
    expect(recordRequests(server)).toHaveLength(67);
  });

  it('stops cleanly on Ctrl-C, keeps what it fetched, and the rerun repeats no record request', async () => {
    const dir = temp();
    let seen = 0;
    let abort: (() => void) | undefined;
    const slow = await startServer({
      intercept: (req) => {
        if (req.url?.startsWith('/exercise/') && !req.url.startsWith('/exercise/exerciseIds')) {
          seen += 1;
          if (seen === 20) abort?.();
        }
        return false;
      },
    });
    try {
      const first = await runInProcess(['--base-url', slow.url, '--api-key', PREMIUM_KEY, '--no-cache', 'mirror', dir], {
        onStart: (t) => {
          abort = t.abort;
        },
      });
      expect(first.code).toBe(130);
      const kept = readCatalogue(dir);
      expect(kept.size).toBeGreaterThan(0);
      expect(kept.size).toBeLessThan(67);

      slow.requests.length = 0;
      const second = await runInProcess(['--base-url', slow.url, '--api-key', PREMIUM_KEY, '--no-cache', 'mirror', dir]);
      expect(second.code).toBe(0);
      const again = recordRequests(slow);
      // Every record kept by the first run is not asked again; the two runs together cover all.
      for (const id of kept.keys()) expect(again).not.toContain(`/exercise/${encodeURIComponent(id)}?`);
      expect(again.length).toBe(67 - kept.size);
      expect(readCatalogue(dir).size).toBe(67);
    } finally {
      await slow.close();
    }
  });

  it('stops before the request that would pass the budget (exit 5), keeps what it fetched, and the rerun repeats no record request', async () => {
    const dir = temp();
    server.requests.length = 0;
    // 67 exercises: 3 listing pages, then records; a budget of 20 leaves room for 17 records.
    const first = await mirror(dir, '--budget', '20');
    expect(first.code).toBe(5);
    expect(first.stderr).toMatch(/budget/i);
    expect(server.requests.length).toBe(20);
    const kept = readCatalogue(dir);
    expect(kept.size).toBe(17);

    server.requests.length = 0;
    const second = await mirror(dir);
    expect(second.code).toBe(0);
    const again = recordRequests(server);
    for (const id of kept.keys()) expect(again).not.toContain(`/exercise/${encodeURIComponent(id)}?`);
    expect(again.length).toBe(67 - 17);
    expect(readCatalogue(dir).size).toBe(67);
  });

  it('reports a listed id whose record is missing (exit 7) and keeps the rest', async () => {
    const dir = temp();
    const gone = await startServer({
      intercept: (req, res) => {
        if (req.url?.startsWith('/exercise/Box_Jump')) {
          res.writeHead(404, { 'Content-Type': 'application/json' });
          res.end(JSON.stringify({ error: 'not_found', message: 'No such exercise.' }));
          return true;
        }
        return false;
      },
    });
    try {
      const result = await runInProcess(['--base-url', gone.url, '--api-key', PREMIUM_KEY, '--no-cache', 'mirror', dir]);
      expect(result.code).toBe(7);
      expect(result.stderr).toContain('Box_Jump');
      expect(readCatalogue(dir).size).toBe(66);
    } finally {
      await gone.close();
    }
  });

  it('drops an id the service no longer lists, and fetches one it newly lists', async () => {
    const source = temp();
    const dir = temp();
    const lines = readFileSync(join(SAMPLE, 'exercises.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '');
    writeFileSync(join(source, 'exercises.jsonl'), `${lines.slice(0, 60).join('\n')}\n`);
    const first = await startServer({ dir: source });
    try {
      expect((await runInProcess(['--base-url', first.url, '--api-key', PREMIUM_KEY, '--no-cache', 'mirror', dir])).code).toBe(0);
    } finally {
      await first.close();
    }
    expect(readCatalogue(dir).size).toBe(60);
    writeFileSync(join(source, 'exercises.jsonl'), `${lines.slice(1, 61).join('\n')}\n`);
    const second = await startServer({ dir: source });
    try {
      expect((await runInProcess(['--base-url', second.url, '--api-key', PREMIUM_KEY, '--no-cache', 'mirror', dir])).code).toBe(0);
      expect(recordRequests(second)).toHaveLength(1);
    } finally {
      await second.close();
    }
    const ids = [...readCatalogue(dir).keys()].sort();
    const want = lines
      .slice(1, 61)
      .map((l) => (JSON.parse(l) as { id: string }).id)
      .sort();
    expect(ids).toEqual(want);
  });

  it.skipIf(!existsSync(join(PUBLIC_DOMAIN, 'exercises.jsonl')))(
    'costs ceil(873/25) + 873 requests over the public-domain catalogue',
    async () => {
      const pd = await startServer({ dir: PUBLIC_DOMAIN });
      try {
        const dir = temp();
        const result = await runInProcess(['--base-url', pd.url, '--api-key', PREMIUM_KEY, '--no-cache', 'mirror', dir]);
        expect(result.code).toBe(0);
        const n = readCatalogue(PUBLIC_DOMAIN).size;
        expect(pd.requests).toHaveLength(Math.ceil(n / 25) + n);
        expect(readCatalogue(dir).size).toBe(n);
      } finally {
        await pd.close();
      }
    },
    60_000,
  );
});
