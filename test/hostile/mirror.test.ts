/**
 * `mirror` against a hostile service and a hostile target directory: ids no file can hold (`.`,
 * `..`, control characters), records without an id or with another one, ids stored under safe
 * names (`CON`, `.mirror`, `a/b`, `../evil`) and found again through the media index, links
 * planted in the mirror, a listing whose cursor loops, and a rerun under another plan.
 */
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type HostileServer, pngBytes, startHostileServer } from '../helpers/hostile-server.js';
import { runInProcess } from '../helpers/test-context.js';
import { KEY, filesUnder } from './support.js';
import { tempDirsPerTest } from '../helpers/temp.js';

const FREE = 'free-key-0123456789';

interface Service {
  ids: string[];
  /** The record served for a listed id (default: a plain one with that id). */
  record?: (id: string, premium: boolean) => Record<string, unknown>;
  /** The pagination of the page after `received` items (default: honest). */
  pagination?: (received: number, lastId: string) => Record<string, unknown>;
}

/** A service over `ids`: listing pages of 25, records, one PNG per exercise (`start`); `FREE` is a free plan's key. */
function serve(server: HostileServer, service: Service): void {
  server.route(/.*/, (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const premium = req.headers['x-api-key'] !== FREE;
    const segments = url.pathname.split('/').slice(1).map(decodeURIComponent);
    const send = (status: number, body: unknown, type = 'application/json'): void => {
      const bytes = Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
      res.writeHead(status, { 'content-type': type, 'content-length': bytes.length });
      res.end(bytes);
    };
    if (url.pathname === '/exercise/exerciseIds') {
      const after = url.searchParams.get('after');
      const start = after === null ? 0 : Number(after.replace('c', ''));
      const page = service.ids.slice(start, start + 25);
      const media = premium ? { premiumImages: ['start'] } : {};
      const received = start + page.length;
      const pagination = service.pagination?.(received, page[page.length - 1] ?? '') ?? {
        total: service.ids.length,
        next: received < service.ids.length ? `c${received}` : null,
      };
      return send(200, { exercises: page.map((id) => ({ id, name: `Name ${id}`, ...media })), pagination });
    }
    if (segments[0] === 'exercise' && segments.length === 2) {
      const id = segments[1]!;
      if (!service.ids.includes(id)) return send(404, { error: { code: 'not_found', message: 'no' } });
      const record = service.record?.(id, premium) ?? { id, name: `Name ${id}`, ...(premium ? { premiumImages: ['start'], premiumVideos: [] } : {}) };
      return send(200, record);
    }
    if (segments[0] === 'images' && segments[2] === 'premium') {
      if (!premium) return send(403, { error: { code: 'forbidden', message: 'premium' } });
      return send(200, pngBytes(300, service.ids.indexOf(segments[1]!) + 2), 'image/png');
    }
    send(404, { error: { code: 'not_found', message: 'no route' } });
  });
}

describe('mirror against a hostile service and target', () => {
  let server: HostileServer;
  const temp = tempDirsPerTest('hostile-mirror-');
  const mirror = (dir: string, args: string[] = [], key = KEY) =>
    runInProcess(['--base-url', server.url, '--api-key', key, '--no-cache', 'mirror', dir, ...args]);
  const lines = (dir: string): Array<Record<string, unknown>> =>
    readFileSync(join(dir, 'exercises.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);

  beforeAll(async () => {
    server = await startHostileServer();
  });
  afterAll(async () => {
    await server.close();
  });
  afterEach(() => {
    server.reset();
  });

  it('ids no file can hold (., .., control characters) are skipped and counted (exit 7); the rest is mirrored, media included', async () => {
    serve(server, { ids: ['Plank', '.', '..', 'bell\u0007', 'Squat'] });
    const dir = temp();
    const r = await mirror(dir, ['--media', 'images']);
    expect(r.code, r.stderr).toBe(7);
    expect(r.stderr).toMatch(/failed: "\."/);
    expect(r.stderr).toMatch(/failed: "\.\."/);
    expect(r.stderr).toContain('3 items of the mirror failed');
    expect(lines(dir).map((e) => e.id)).toEqual(['Plank', 'Squat']);
    expect(existsSync(join(dir, 'images', 'Plank', 'premium', 'start.png'))).toBe(true);
    expect(existsSync(join(dir, 'images', 'Squat', 'premium', 'start.png'))).toBe(true);
    // A rerun is no longer stuck: the same three skipped, nothing else to do.
    const again = await mirror(dir, ['--media', 'images']);
    expect(again.code).toBe(7);
    expect(again.stderr).toContain('0 record requests');
  });

  it('a record without an id, or with another id, is stored under the listed id (said with --verbose); --catalogue accepts the result', async () => {
    serve(server, {
      ids: ['A', 'B', 'C'],
      record: (id, premium) => {
        const media = premium ? { premiumImages: ['start'] } : {};
        if (id === 'A') return { name: 'No id', ...media };
        if (id === 'B') return { id: 'C', name: 'Wrong id', ...media };
        return { id, name: 'Right', ...media };
      },
    });
    const dir = temp();
    const r = await runInProcess(['--base-url', server.url, '--api-key', KEY, '--no-cache', '--verbose', 'mirror', dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('the record listed as "A" came without an id; stored as "A"');
    expect(r.stderr).toContain('the record listed as "B" came with the id "C"; stored as "B"');
    expect(lines(dir).map((e) => [e.id, e.name])).toEqual([
      ['A', 'No id'],
      ['B', 'Wrong id'],
      ['C', 'Right'],
    ]);
    const ids = await runInProcess(['--catalogue', dir, 'ids', '--all', '--format', 'tsv']);
    expect(ids.code, ids.stderr).toBe(0);
    expect(
      ids.stdout
        .trim()
        .split('\n')
        .map((l) => l.split('\t')[0])
        .sort(),
    ).toEqual(['A', 'B', 'C']);
  });

  it('media stored under safe names (CON, .mirror, a/b, ../evil) are found again by --catalogue through the media index', async () => {
    const ids = ['CON', '.mirror', 'a/b', '../evil', 'Plain'];
    serve(server, { ids });
    const dir = temp();
    const r = await mirror(dir, ['--media', 'images']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('5 fetched');
    // Nothing was written outside the images folder, nothing into the work directory.
    expect(
      filesUnder(dir)
        .filter((f) => f.endsWith('.png'))
        .every((f) => f.startsWith('images/')),
    ).toBe(true);
    expect(existsSync(join(dir, 'evil'))).toBe(false);
    for (const id of ids) {
      const got = await runInProcess(['--catalogue', dir, 'image', id, 'start', '-o', '-']);
      expect(got.code, `${id}: ${got.stderr}`).toBe(0);
      expect(got.stdoutBytes.equals(pngBytes(300, ids.indexOf(id) + 2)), id).toBe(true);
    }
  });

  it('a planted images/ link to another directory: exit 6 naming it, nothing written there', async () => {
    serve(server, { ids: ['Plank', 'Squat'] });
    const dir = temp();
    const elsewhere = temp();
    symlinkSync(elsewhere, join(dir, 'images'));
    const r = await mirror(dir, ['--media', 'images']);
    expect(r.code, r.stderr).toBe(6);
    expect(r.stderr).toContain(`Cannot write ${join(dir, 'images')}: it is a symbolic link`);
    expect(filesUnder(elsewhere)).toEqual([]);
  });

  it('a planted link deeper down (images/<id> → elsewhere): exit 6 naming it, nothing written there', async () => {
    serve(server, { ids: ['Plank'] });
    const dir = temp();
    const elsewhere = temp();
    mkdirSync(join(dir, 'images'));
    symlinkSync(elsewhere, join(dir, 'images', 'Plank'));
    const r = await mirror(dir, ['--media', 'images']);
    expect(r.code, r.stderr).toBe(6);
    expect(r.stderr).toContain(join(dir, 'images', 'Plank'));
    expect(filesUnder(elsewhere)).toEqual([]);
  });

  it('a planted .mirror/records.jsonl link to another file: exit 6 naming it, the other file untouched', async () => {
    serve(server, { ids: ['Plank', 'Squat'] });
    const dir = temp();
    const victim = join(temp(), 'victim.txt');
    writeFileSync(victim, 'precious\n');
    mkdirSync(join(dir, '.mirror'));
    symlinkSync(victim, join(dir, '.mirror', 'records.jsonl'));
    const r = await mirror(dir);
    expect(r.code, r.stderr).toBe(6);
    expect(r.stderr).toContain(`Cannot write ${join(dir, '.mirror', 'records.jsonl')}`);
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
  });

  it('the catalogue root itself may be a link the user made', async () => {
    serve(server, { ids: ['Plank'] });
    const real = temp();
    const link = join(temp(), 'catalogue');
    symlinkSync(real, link);
    const r = await mirror(link, ['--media', 'images']);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(real, 'images', 'Plank', 'premium', 'start.png'))).toBe(true);
  });

  it('a listing whose cursor loops back: a warning, exit 7, and the ids of the previous listing kept (60 stay 60)', async () => {
    const ids = Array.from({ length: 60 }, (_, i) => `E${String(i).padStart(2, '0')}`);
    serve(server, { ids });
    const dir = temp();
    expect((await mirror(dir)).code).toBe(0);
    expect(lines(dir)).toHaveLength(60);
    server.reset();
    // After 50 ids the cursor goes back to the first page's.
    serve(server, { ids, pagination: (received) => ({ total: 60, next: received >= 50 ? 'c25' : `c${received}` }) });
    const r = await mirror(dir);
    expect(r.code, r.stderr).toBe(7);
    expect(r.stderr).toMatch(/warning: the listing gave the cursor "c25" a second time/);
    expect(r.stderr).toContain('the 10 ids of the previous listing it lacks are kept');
    expect(lines(dir)).toHaveLength(60);
  });

  it('a listing that ends early (fewer ids than its total): exit 7, the previous ids kept', async () => {
    const ids = Array.from({ length: 30 }, (_, i) => `E${i}`);
    serve(server, { ids });
    const dir = temp();
    expect((await mirror(dir)).code).toBe(0);
    server.reset();
    serve(server, { ids: ids.slice(0, 20), pagination: () => ({ total: 30, next: null }) });
    const r = await mirror(dir);
    expect(r.code, r.stderr).toBe(7);
    expect(r.stderr).toContain('the listing ended after 20 items although it announced 30');
    expect(lines(dir)).toHaveLength(30);
  });

  it('a rerun under a premium key after a free one fetches the records again (the premium lists arrive)', async () => {
    const ids = ['Plank', 'Squat', 'Lunge'];
    serve(server, { ids });
    const dir = temp();
    expect((await mirror(dir, [], FREE)).code).toBe(0);
    expect(lines(dir).every((e) => e.premiumImages === undefined)).toBe(true);
    server.reset();
    serve(server, { ids });
    const r = await mirror(dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('3 records came from another service or plan');
    expect(server.count(/^\/exercise\/(Plank|Squat|Lunge)/)).toBe(3);
    expect(lines(dir).every((e) => Array.isArray(e.premiumImages))).toBe(true);
    // The work file says where each answer came from, the key only as a hash.
    const work = readFileSync(join(dir, '.mirror', 'records.jsonl'), 'utf8');
    expect(work).toContain(`"origin":"${server.url}"`);
    expect(work).toContain('"plan":"premium"');
    expect(work).not.toContain(KEY);
    // Another key of the same plan sees the same: nothing fetched again.
    server.reset();
    serve(server, { ids });
    const same = await mirror(dir, [], 'another-premium-key-42');
    expect(same.code).toBe(0);
    expect(server.count(/^\/exercise\/(Plank|Squat|Lunge)/)).toBe(0);
  });
});
