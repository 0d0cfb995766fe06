/**
 * The media commands end to end, in-process (runCli with a test context) against the project's
 * catalogue server over the shipped sample (real HTTP, real files), faults through `intercept`.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join, relative } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type InProcessOptions, runInProcess } from '../helpers/test-context.js';
import { type CatalogueServer, FREE_KEY, PREMIUM_KEY, startServer } from '../helpers/server.js';
import { sampleCatalogueDir } from '../../src/server/sandbox.js';
import { mp4Bytes, pngBytes } from './media-catalogue.js';
import { cutResponseAfter } from '../helpers/faults.js';
import { formatBytes } from '../../src/util/format-bytes.js';
import { isolatedHome, tempDir } from '../helpers/temp.js';

type Intercept = (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;
let intercept: Intercept | undefined;
let server: CatalogueServer;
const SAMPLE = sampleCatalogueDir();
const sample = (kind: 'image' | 'video', id: string, name: string): Buffer =>
  readFileSync(join(SAMPLE, kind === 'image' ? 'images' : 'videos', id, 'premium', `${name}${kind === 'image' ? '.png' : '.mp4'}`));

beforeAll(async () => {
  server = await startServer({ intercept: (req, res) => (intercept ? intercept(req, res) : false) });
});
afterAll(() => server.close());
afterEach(() => {
  intercept = undefined;
  server.requests.length = 0;
});

function cli(args: string[], options: InProcessOptions = {}) {
  return runInProcess(['--base-url', server.url, ...args], { ...options, env: { EXERCISES_API_KEY: PREMIUM_KEY, ...options.env } });
}
const out = (): string => tempDir('media-cli-');
const isMedia = (path: string): boolean => path.startsWith('/images/') || path.startsWith('/videos/');
const mediaRequests = () => server.requests.filter((r) => isMedia(r.path));
const recordRequests = () => server.requests.filter((r) => r.path.startsWith('/exercise/'));

/** Every file below `dir`, relative to it. */
function filesUnder(dir: string): string[] {
  const found: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else found.push(relative(dir, p));
    }
  };
  walk(dir);
  return found.sort();
}

/** Answers every media request with this status, type and body instead of the real server. */
function answerMedia(status: number, contentType: string, body: string): Intercept {
  return (req, res) => {
    if (!isMedia(req.url ?? '')) return false;
    res.writeHead(status, { 'content-type': contentType });
    res.end(body);
    return true;
  };
}

/** Lets the real server answer media once, cutting the connection after `limit` body bytes. */
function cutMediaOnce(limit: number, path?: string): Intercept {
  let left = 1;
  return (req, res) => {
    if (!isMedia(req.url ?? '') || left <= 0 || (path && !req.url!.startsWith(path))) return false;
    left -= 1;
    cutResponseAfter(res, limit);
    return false;
  };
}

describe('image and video', () => {
  it('fetches every image of an exercise from its record, byte-identical, as <dir>/<id>/<name>.png', async () => {
    const dir = out();
    const r = await cli(['image', 'Barbell_Bench_Press', '--dir', dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(filesUnder(dir)).toEqual(['Barbell_Bench_Press/end.png', 'Barbell_Bench_Press/start.png']);
    expect(readFileSync(join(dir, 'Barbell_Bench_Press/start.png')).equals(sample('image', 'Barbell_Bench_Press', 'start'))).toBe(true);
    expect(recordRequests()).toHaveLength(1);
    expect(mediaRequests()).toHaveLength(2);
  });

  it('with names, fetches just those and spends no record request', async () => {
    const dir = out();
    const r = await cli(['video', 'Plank', 'demo', '--dir', dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(dir, 'Plank/demo.mp4')).equals(sample('video', 'Plank', 'demo'))).toBe(true);
    expect(recordRequests()).toHaveLength(0);
    expect(mediaRequests().map((q) => q.path)).toEqual(['/videos/Plank/premium/demo.mp4']);
  });

  it('with names, the exercise may be given by name (the help example): resolved once after the 404, saved under the real id', async () => {
    const dir = out();
    const r = await cli(['image', 'Barbell Bench Press', 'start', '-o', join(dir, 'bench.png')]);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(dir, 'bench.png')).equals(sample('image', 'Barbell_Bench_Press', 'start'))).toBe(true);
    expect(recordRequests()).toHaveLength(1);
    expect(mediaRequests().map((q) => [q.path, q.status])).toEqual([
      ['/images/Barbell%20Bench%20Press/premium/start.png', 404],
      ['/images/Barbell_Bench_Press/premium/start.png', 200],
    ]);

    const r2 = await cli(['image', 'barbell bench press', 'start', 'end', '--dir', dir]);
    expect(r2.code, r2.stderr).toBe(0);
    expect(filesUnder(dir)).toEqual(['Barbell_Bench_Press/end.png', 'Barbell_Bench_Press/start.png', 'bench.png']);
    expect(readFileSync(join(dir, 'Barbell_Bench_Press/end.png')).equals(sample('image', 'Barbell_Bench_Press', 'end'))).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['Barbell_Bench_Press', 'bench.png']);
  });

  it('with several names under a name: one probe, then the lookup, then the media (never one 404 per name)', async () => {
    const dir = out();
    const r = await cli(['image', 'Barbell Bench Press', 'start', 'end', '--dir', dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(recordRequests()).toHaveLength(1);
    const requests = mediaRequests().map((q) => `${q.status} ${q.path}`);
    expect(requests[0]).toBe('404 /images/Barbell%20Bench%20Press/premium/start.png');
    expect(requests.slice(1).sort()).toEqual(['200 /images/Barbell_Bench_Press/premium/end.png', '200 /images/Barbell_Bench_Press/premium/start.png']);
    expect(filesUnder(dir)).toEqual(['Barbell_Bench_Press/end.png', 'Barbell_Bench_Press/start.png']);
  });

  it('--overwrite downloads a complete file again; without it, it is skipped', async () => {
    const dir = out();
    const file = join(dir, 'plank.png');
    expect((await cli(['image', 'Plank', 'start', '-o', file])).code).toBe(0);
    const again = await cli(['image', 'Plank', 'start', '-o', file]);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/already there; skipped \(--overwrite downloads it again\)/);
    expect(mediaRequests()).toHaveLength(1);
    const forced = await cli(['image', 'Plank', 'start', '-o', file, '--overwrite']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(mediaRequests()).toHaveLength(2);
    const old = await cli(['image', 'Plank', 'start', '-o', file, '--force']);
    expect(old.code).toBe(2); // --force is no re-download flag
  });

  it('-o <file> on a terminal shows a byte meter on stderr; in a pipe, none', async () => {
    const dir = out();
    const target = join(dir, 'plank.mp4');
    // The meter names the file by the path given, dropped whole when the line has no room for
    // it: a terminal as wide as the path plus the meter's own fields, wherever the temp dir is.
    const tty = await cli(['video', 'Plank', 'demo', '-o', target], { stderrIsTTY: true, columns: target.length + 60 });
    expect(tty.code, tty.stderr).toBe(0);
    const size = sample('video', 'Plank', 'demo').length;
    expect(tty.stderr).toMatch(/\r.*plank\.mp4.*%/);
    expect(tty.stderr).toContain('\r\u001b[K'); // the meter line is cleared before "Saved"
    expect(tty.stderr).toContain(formatBytes(size));
    const piped = await cli(['video', 'Plank', 'demo', '-o', join(dir, 'plank2.mp4')]);
    expect(piped.code).toBe(0);
    expect(piped.stderr).not.toMatch(/%/);
  });

  it('with names and an unknown exercise: exit 4 naming the exercise, after one record request', async () => {
    const r = await cli(['image', 'No Such Exercise', 'start', '--dir', out()]);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/No exercise has the id or name "No Such Exercise"/);
    expect(recordRequests()).toHaveLength(1);
  });

  it('-o - writes the bytes to stdout (a pipe) and nothing else', async () => {
    const r = await cli(['image', 'Plank', 'start', '-o', '-']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdoutBytes.equals(sample('image', 'Plank', 'start'))).toBe(true);
  });

  it('-o <file> writes one file; -o with several media is a usage error', async () => {
    const dir = out();
    const r = await cli(['image', 'Plank', 'end', '-o', join(dir, 'plank.png')]);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(dir, 'plank.png')).equals(sample('image', 'Plank', 'end'))).toBe(true);
    expect(recordRequests()).toHaveLength(0); // an id with a name: straight to the media
    const many = await cli(['image', 'Plank', '-o', join(dir, 'x.png')]);
    expect(many.code).toBe(2);
    expect(many.stderr).toMatch(/exactly one image/);
  });

  it('-o - is refused when stdout is a terminal, before any request', async () => {
    const r = await cli(['image', 'Plank', 'start', '-o', '-'], { stdoutIsTTY: true });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Refusing to write image bytes to the terminal/);
    expect(r.stdoutBytes).toHaveLength(0);
    expect(server.requests).toHaveLength(0);
  });

  it('a free plan gets exit 3 and a sentence about the plan', async () => {
    const r = await cli(['image', 'Plank', 'start', '--dir', out()], { env: { EXERCISES_API_KEY: FREE_KEY } });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/premium plan/);
  });

  it('a lying server (HTML with 200) leaves no file and exits 6', async () => {
    intercept = answerMedia(200, 'text/html', '<!doctype html><title>Login</title>');
    const dir = out();
    const r = await cli(['image', 'Plank', 'start', '--dir', dir]);
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/text\/html instead of a PNG image/);
    expect(filesUnder(dir)).toEqual([]);
  });

  it('an entry with a scheme other than http(s) is skipped with a warning; the others still download, exit 7', async () => {
    intercept = (req, res) => {
      if (req.url?.split('?')[0] !== '/exercise/Plank') return false;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 'Plank', name: 'Plank', premiumImages: ['ftp://cdn.example.net/a.png', 'start'] }));
      return true;
    };
    const dir = out();
    const r = await cli(['image', 'Plank', '--dir', dir]);
    expect(r.code, r.stderr).toBe(7);
    expect(r.stderr).toMatch(/Skipped: image "ftp:\/\/cdn\.example\.net\/a\.png" of exercise Plank: .*not an http or https URL/);
    expect(filesUnder(dir)).toEqual(['Plank/start.png']);
    expect(mediaRequests().map((q) => q.path)).toEqual(['/images/Plank/premium/start.png']);
  });

  it('a missing media name is exit 4, naming it', async () => {
    const r = await cli(['video', 'Plank', 'nope', '--dir', out()]);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('video "nope" of exercise Plank');
  });
});

describe('download', () => {
  it('fetches the media of the ids given, then a rerun makes no media request at all', async () => {
    const dir = out();
    const first = await cli(['download', 'Plank', 'Push_Up', '--dir', dir]);
    expect(first.code, first.stderr).toBe(0);
    expect(filesUnder(dir)).toEqual(['Plank/demo.mp4', 'Plank/end.png', 'Plank/start.png', 'Push_Up/demo.mp4', 'Push_Up/end.png', 'Push_Up/start.png']);
    for (const f of filesUnder(dir)) {
      const [id, file] = f.split('/') as [string, string];
      const kind = file.endsWith('.png') ? 'image' : 'video';
      expect(readFileSync(join(dir, f)).equals(sample(kind, id, file.replace(/\.(png|mp4)$/, '')))).toBe(true);
    }
    expect(first.stderr).toMatch(/Fetched 6 files/);
    server.requests.length = 0;
    const again = await cli(['download', 'Plank', 'Push_Up', '--dir', dir, '--json']);
    expect(again.code).toBe(0);
    expect(mediaRequests()).toHaveLength(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ fetched: 0, skipped: 6, failed: 0 });
  });

  it('uses the summaries of a listing: --all spends list requests only, no record per id', async () => {
    const dir = out();
    const r = await cli(['download', '--all', '--images', '--dir', dir, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(server.requests.filter((q) => /^\/exercise\/(?!exerciseIds|query)/.test(q.path))).toHaveLength(0);
    expect(mediaRequests().every((q) => q.path.startsWith('/images/'))).toBe(true);
    expect(JSON.parse(r.stdout).fetched).toBe(mediaRequests().length);
  });

  it('reads ids from stdin with -, as jsonl', async () => {
    const dir = out();
    const r = await cli(['download', '-', '--videos', '--dir', dir], { input: '{"id":"Plank"}\n{"id":"Box_Jump"}\n' });
    expect(r.code, r.stderr).toBe(0);
    expect(filesUnder(dir)).toEqual(['Box_Jump/demo.mp4', 'Plank/demo.mp4']);
  });

  it('--dry-run lists what it would fetch and the requests, and makes no media request', async () => {
    const dir = out();
    const r = await cli(['download', 'Plank', '--dir', dir, '--dry-run']);
    expect(r.code, r.stderr).toBe(0);
    expect(mediaRequests()).toHaveLength(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(3);
    expect(r.stdout).toMatch(/^fetch\tPlank\timage\tstart\t/m);
    expect(r.stderr).toMatch(/would fetch 3 files with 3 media requests/);
    expect(filesUnder(dir)).toEqual([]);
  });

  it('resumes a connection dropped mid-file in the same run with a Range request; bytes identical', async () => {
    intercept = cutMediaOnce(1000, '/videos/Plank/');
    const size = sample('video', 'Plank', 'demo').length;
    const dir = out();
    const r = await cli(['download', 'Plank', '--videos', '--dir', dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(dir, 'Plank/demo.mp4')).equals(sample('video', 'Plank', 'demo'))).toBe(true);
    const video = mediaRequests().filter((q) => q.path.startsWith('/videos/Plank/'));
    expect(size).toBeGreaterThan(1000);
    expect(video).toHaveLength(2);
    expect(video[1]).toMatchObject({ status: 206 });
    expect(video[1]?.range).toMatch(/^bytes=[1-9]\d*-$/);
    expect(video[1]?.ifRange).toBeTruthy();
  });

  it('a failed run leaves a .part that the rerun continues with Range and If-Range', async () => {
    intercept = cutMediaOnce(1000, '/videos/Plank/');
    const dir = out();
    const first = await cli(['--retries', '0', 'download', 'Plank', '--videos', '--dir', dir]);
    expect(first.code).toBe(7);
    expect(existsSync(join(dir, 'Plank/demo.mp4'))).toBe(false);
    const held = statSync(join(dir, 'Plank/demo.mp4.part')).size;
    expect(held).toBeGreaterThan(0);
    server.requests.length = 0;
    const second = await cli(['download', 'Plank', '--videos', '--dir', dir]);
    expect(second.code, second.stderr).toBe(0);
    expect(readFileSync(join(dir, 'Plank/demo.mp4')).equals(sample('video', 'Plank', 'demo'))).toBe(true);
    expect(mediaRequests()).toEqual([expect.objectContaining({ range: `bytes=${held}-`, status: 206, ifRange: expect.stringMatching(/^"/) })]);
    expect(existsSync(join(dir, 'Plank/demo.mp4.part'))).toBe(false);
  });

  it('a changed file (new ETag) makes the rerun start over from zero', async () => {
    const dir = out();
    mkdirSync(join(dir, 'Plank'));
    writeFileSync(join(dir, 'Plank/demo.mp4.part'), Buffer.alloc(5000, 9));
    writeFileSync(
      join(dir, 'Plank/demo.mp4.part.json'),
      JSON.stringify({ version: 1, url: `${server.url}/videos/Plank/premium/demo.mp4`, etag: '"an-older-version"', total: 99999 }),
    );
    const r = await cli(['download', 'Plank', '--videos', '--dir', dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(dir, 'Plank/demo.mp4')).equals(sample('video', 'Plank', 'demo'))).toBe(true);
    expect(mediaRequests()).toEqual([expect.objectContaining({ range: 'bytes=5000-', ifRange: '"an-older-version"', status: 200 })]);
  });

  describe('a server that lies: no final file, exit 7, each failure named', () => {
    const lies: Array<[string, Intercept]> = [
      [
        'wrong Content-Length',
        (_q, res) => {
          res.writeHead(200, { 'content-type': 'image/png', 'content-length': '9000' });
          res.write(pngBytes(3000));
          res.socket?.end();
          return true;
        },
      ],
      [
        'HTML with 200',
        (_q, res) => {
          res.writeHead(200, { 'content-type': 'text/html' });
          res.end('<html>nope</html>');
          return true;
        },
      ],
      [
        'truncated body',
        (_q, res) => {
          res.writeHead(200, { 'content-type': 'image/png', 'content-length': '9000' });
          res.write(pngBytes(4000));
          setTimeout(() => res.socket?.destroy(), 20);
          return true;
        },
      ],
      [
        'wrong magic bytes',
        (_q, res) => {
          res.writeHead(200, { 'content-type': 'image/png', 'content-length': '3000' });
          res.end(Buffer.alloc(3000, 0x41));
          return true;
        },
      ],
    ];
    it.each(lies)('%s', async (_label, lie) => {
      intercept = (req, res) => (req.url === '/images/Plank/premium/start.png' ? lie(req, res) : false);
      const dir = out();
      const r = await cli(['--retries', '1', 'download', 'Plank', '--images', '--dir', dir]);
      expect(r.code).toBe(7);
      expect(r.stderr).toMatch(/failed: image "start" of exercise Plank/);
      expect(existsSync(join(dir, 'Plank/start.png'))).toBe(false);
      expect(readFileSync(join(dir, 'Plank/end.png')).equals(sample('image', 'Plank', 'end'))).toBe(true);
    });
  });

  it('keeps hostile ids and names from the server inside --dir', async () => {
    const hostile = {
      id: '../../escaped',
      name: 'Hostile',
      premiumImages: ['../x', '/abs/evil', 'nul\u0000byte', 'z'.repeat(400), '..', '.hidden', 'a\\..\\b'],
    };
    intercept = (req, res) => {
      if (req.url?.startsWith('/exercise/')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(hostile));
        return true;
      }
      if (isMedia(req.url ?? '') || req.url?.startsWith('/abs/')) {
        const body = pngBytes(500);
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(body.length) });
        res.end(body);
        return true;
      }
      return false;
    };
    const root = out();
    const dir = join(root, 'media');
    const r = await cli(['download', 'Hostile', '--images', '--dir', dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(root)).toEqual(['media']);
    const files = filesUnder(dir);
    expect(files).toHaveLength(hostile.premiumImages.length);
    for (const f of files) {
      const parts = f.split('/');
      expect(parts).toHaveLength(2);
      for (const p of parts) {
        expect(p.startsWith('.')).toBe(false);
        expect(Buffer.byteLength(p)).toBeLessThanOrEqual(124);
      }
    }
  });

  it('an exercise whose id no URL can carry is skipped with a warning, the others still download, exit 7', async () => {
    intercept = (req, res) => {
      if (!req.url?.startsWith('/exercise/exerciseIds')) return false;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          exercises: [
            { id: '..', name: 'Dots', premiumImages: ['start', '..'] },
            { id: 'Plank', name: 'Plank', premiumImages: ['start', 'end'] },
          ],
          pagination: { total: 2, next: null, prev: null },
        }),
      );
      return true;
    };
    const root = out();
    const dir = join(root, 'media');
    const r = await cli(['download', '--all', '--images', '--dir', dir]);
    expect(r.code, r.stderr).toBe(7);
    expect(r.stderr).toMatch(/Skipped: image "start" of exercise \.\.: /);
    expect(r.stderr).toMatch(/Skipped: image "\.\." of exercise \.\.: /);
    expect(filesUnder(dir)).toEqual(['Plank/end.png', 'Plank/start.png']);
    expect(readFileSync(join(dir, 'Plank/start.png')).equals(sample('image', 'Plank', 'start'))).toBe(true);
    expect(readdirSync(root)).toEqual(['media']);
    expect(
      mediaRequests()
        .map((q) => q.path)
        .sort(),
    ).toEqual(['/images/Plank/premium/end.png', '/images/Plank/premium/start.png']);
  });

  it('never writes through a symbolic link planted at a .part or a sidecar name: the outside files are untouched', async () => {
    const root = out();
    const dir = join(root, 'media');
    mkdirSync(join(dir, 'Plank'), { recursive: true });
    const outside = join(root, 'outside.png');
    const outsideSidecar = join(root, 'outside.json');
    writeFileSync(outside, 'keep me');
    writeFileSync(outsideSidecar, 'keep me too');
    symlinkSync(outside, join(dir, 'Plank/start.png.part'));
    symlinkSync(outsideSidecar, join(dir, 'Plank/end.png.part.json.tmp'));
    const r = await cli(['download', 'Plank', '--images', '--dir', dir]);
    expect(r.code, r.stderr).toBe(7);
    expect(r.stderr).toContain(`failed: image "start" of exercise Plank: Refusing to write through ${join(dir, 'Plank/start.png.part')}`);
    expect(readFileSync(outside, 'utf8')).toBe('keep me');
    expect(readFileSync(outsideSidecar, 'utf8')).toBe('keep me too');
    expect(existsSync(join(dir, 'Plank/start.png'))).toBe(false);
    expect(readFileSync(join(dir, 'Plank/end.png')).equals(sample('image', 'Plank', 'end'))).toBe(true);
  });

  it('a free plan: no premium lists in the records, a notice, nothing fetched', async () => {
    const r = await cli(['download', 'Plank', '--dir', out()], { env: { EXERCISES_API_KEY: FREE_KEY } });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/free plan/);
    expect(mediaRequests()).toHaveLength(0);
  });

  it('a 403 on media stops the run with exit 3 and the plan sentence', async () => {
    intercept = answerMedia(403, 'application/json', '{"error":{"code":"forbidden","message":"plan"}}');
    const r = await cli(['download', 'Plank', 'Push_Up', '--dir', out(), '--concurrency', '1']);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/premium plan/);
    expect(mediaRequests()).toHaveLength(1);
  });

  it('keeps at most --concurrency media requests in flight', async () => {
    let inFlight = 0;
    let peak = 0;
    intercept = async (req, res) => {
      if (!isMedia(req.url ?? '')) return false;
      inFlight++;
      peak = Math.max(peak, inFlight);
      res.on('close', () => inFlight--);
      await new Promise((r) => setTimeout(r, 60)); // slow enough for requests to overlap
      return false;
    };
    const r = await cli(['download', '--all', '--dir', out(), '--concurrency', '3']);
    expect(r.code, r.stderr).toBe(0);
    expect(mediaRequests().length).toBeGreaterThan(10);
    expect(peak).toBe(3);
  });

  it('a listing of several pages is one run: one summary, and the connections are opened once and reused', async () => {
    const sockets = new Set<unknown>();
    intercept = (req) => {
      sockets.add(req.socket);
      return false;
    };
    const r = await cli(['download', '--all', '--images', '--dir', out(), '--concurrency', '3']);
    expect(r.code, r.stderr).toBe(0);
    const pages = server.requests.filter((q) => q.path.startsWith('/exercise/exerciseIds')).length;
    expect(pages).toBeGreaterThan(1);
    // One summary line for the whole listing, counting every file of every page.
    const summaries = r.stderr.split('\n').filter((l) => l.startsWith('Fetched '));
    expect(summaries).toHaveLength(1);
    expect(summaries[0]).toContain(`Fetched ${mediaRequests().length} files`);
    // The pool's three and the one the next page was asked on while files downloaded, at most.
    expect(sockets.size).toBeLessThanOrEqual(4);
    expect(server.requests.length).toBeGreaterThan(20);
  });

  /** Serves Plank's video up to `bytes`, then stalls; resolves once those bytes are out. */
  function stallPlankVideoAfter(bytes: number): Promise<void> {
    let started!: () => void;
    const streaming = new Promise<void>((r) => (started = r));
    intercept = (req, res) => {
      if (req.url !== '/videos/Plank/premium/demo.mp4') return false;
      const body = sample('video', 'Plank', 'demo');
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(body.length), 'accept-ranges': 'bytes', etag: '"v1"' });
      res.write(body.subarray(0, bytes), () => setTimeout(started, 100)); // then stall
      return true;
    };
    return streaming;
  }

  it('Ctrl-C mid-download: exit 130, no final file, the .part kept for the rerun', async () => {
    const streaming = stallPlankVideoAfter(1000);
    const dir = out();
    const r = await cli(['download', 'Plank', '--videos', '--dir', dir], {
      timeoutMs: 15_000,
      onStart: (t) => void streaming.then(() => t.abort()), // what main() does on SIGINT
    });
    expect(r.signal).toBeNull();
    expect(r.code).toBe(130);
    expect(existsSync(join(dir, 'Plank/demo.mp4'))).toBe(false);
    expect(statSync(join(dir, 'Plank/demo.mp4.part')).size).toBe(1000);
    expect(existsSync(join(dir, 'Plank/demo.mp4.part.json'))).toBe(true);
    // The summary counts the kept bytes and says where they are.
    expect(r.stderr).toContain(`Interrupted after it fetched 0 of 1 file (0 B); 1.0 kB kept in ${join(dir, 'Plank/demo.mp4.part')}, resumed by the next run.`);
  });

  it('Ctrl-C during `video -o <file>`: exit 130, and the message names what its .part kept for the rerun', async () => {
    const streaming = stallPlankVideoAfter(1500);
    const file = join(out(), 'plank.mp4');
    const r = await cli(['video', 'Plank', 'demo', '-o', file], {
      timeoutMs: 15_000,
      onStart: (t) => void streaming.then(() => t.abort()), // what main() does on SIGINT
    });
    expect(r.code).toBe(130);
    expect(existsSync(file)).toBe(false);
    expect(statSync(`${file}.part`).size).toBe(1500);
    expect(r.stderr).toContain(`Interrupted; 1.5 kB kept in ${file}.part, resumed by the next run.`);
  });

  it('usage errors: nothing to download, ids with filters, bad concurrency', async () => {
    expect((await cli(['download'])).code).toBe(2);
    expect((await cli(['download', 'Plank', '--muscle', 'chest'])).code).toBe(2);
    expect((await cli(['download', 'Plank', '--concurrency', '0'])).code).toBe(2);
    expect((await cli(['download', 'Plank', '--concurrency', '33'])).code).toBe(2);
    expect(server.requests).toHaveLength(0);
  });
});

describe('download of exercises that list no media', () => {
  it('explains the free plan only when the records lack the premium fields, not under a premium key', async () => {
    const premium = await runInProcess(['download', 'Jump_Rope', '--dir', out()], {
      env: { EXERCISES_BASE_URL: server.url, EXERCISES_API_KEY: PREMIUM_KEY },
    });
    expect(premium.code).toBe(0);
    expect(premium.stderr).toContain('lists premium images or videos');
    expect(premium.stderr).not.toMatch(/free plan/);
    const free = await runInProcess(['download', 'Jump_Rope', '--dir', out()], {
      env: { EXERCISES_BASE_URL: server.url, EXERCISES_API_KEY: FREE_KEY },
    });
    expect(free.stderr).toMatch(/free plan/);
  });
});

/** Answers every video request with `body`, whole and at once: only the client's limit slows it. */
function serveVideos(body: Buffer): void {
  intercept = (req, res) => {
    if (!(req.url ?? '').startsWith('/videos/')) return false;
    res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(body.length) });
    res.end(body);
    return true;
  };
}

describe('--limit-rate', () => {
  it('the flag, the variable and `config set` each set it, in bytes a second; 0 on the flag lifts a stored limit', async () => {
    const home = isolatedHome();
    const limitRate = async (env: Record<string, string>, flags: string[] = []) => {
      const r = await runInProcess([...flags, 'config', 'list', '--json'], { env: { HOME: home, ...env } });
      expect(r.code, r.stderr).toBe(0);
      return (JSON.parse(r.stdout) as Record<string, unknown>)['limit-rate'];
    };
    expect(await limitRate({}, ['--limit-rate', '2m'])).toMatchObject({ value: 2 * 1024 * 1024, source: 'flag' });
    expect(await limitRate({ EXERCISES_LIMIT_RATE: '100k' })).toMatchObject({ source: 'env' });
    const set = await runInProcess(['config', 'set', 'limit-rate', '500k'], { env: { HOME: home } });
    expect(set.code, set.stderr).toBe(0);
    expect(await limitRate({})).toMatchObject({ value: 512_000, source: 'config' });
    expect(await limitRate({}, ['--limit-rate', '0'])).toMatchObject({ value: 0, source: 'flag' });
    const bad = await runInProcess(['config', 'set', 'limit-rate', 'lots'], { env: { HOME: home } });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('limit-rate must be bytes per second');
  });

  it('a bad value on the command line or in the variable: exit 2 with the setting’s message, before any request', async () => {
    const flag = await cli(['download', 'Plank', '--dir', out(), '--limit-rate', 'fast']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('--limit-rate must be bytes per second');
    const variable = await cli(['video', 'Plank', '--dir', out()], { env: { EXERCISES_LIMIT_RATE: '12q' } });
    expect(variable.code).toBe(2);
    expect(variable.stderr).toContain('EXERCISES_LIMIT_RATE must be bytes per second');
    expect(server.requests).toHaveLength(0);
  });

  it('shares one budget across the pool: two 50 KB files at once under 100k take about 1 s, not 0.5', async () => {
    const body = mp4Bytes(50_000);
    serveVideos(body);
    const dir = out();
    const started = performance.now();
    const r = await cli(['download', 'Plank', 'Push_Up', '--videos', '--dir', dir, '--concurrency', '2', '--limit-rate', '100k']);
    const seconds = (performance.now() - started) / 1000;
    expect(r.code, r.stderr).toBe(0);
    // 100,000 bytes at 102,400 a second, less the tenth of a second of burst: ≥ 0.87 s. A bucket per file would take ~0.4 s.
    expect(seconds).toBeGreaterThanOrEqual(0.85);
    expect(readFileSync(join(dir, 'Plank/demo.mp4')).equals(body)).toBe(true);
  });

  it('video -o <file> follows the variable too', async () => {
    const body = mp4Bytes(60_000);
    serveVideos(body);
    const file = join(out(), 'plank.mp4');
    const started = performance.now();
    const r = await cli(['video', 'Plank', 'demo', '-o', file], { env: { EXERCISES_LIMIT_RATE: '100k' } });
    expect(r.code, r.stderr).toBe(0);
    expect((performance.now() - started) / 1000).toBeGreaterThanOrEqual(0.45);
    expect(readFileSync(file).equals(body)).toBe(true);
  });

  it('a limit below the deadline’s minimum rate does not make the download time out', async () => {
    // The server drips 36 bytes at 25 a second (1.4 s); the client takes 20 a second (1.8 s). After
    // the grace (3 × 300 ms) the usual rule would ask 8 KiB/s and cut the file at about 0.9 s.
    const body = mp4Bytes(36);
    intercept = (req, res) => {
      if (!(req.url ?? '').startsWith('/videos/')) return false;
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(body.length) });
      let sent = 0;
      const drip = setInterval(() => {
        if (res.destroyed) return clearInterval(drip);
        res.write(body.subarray(sent, sent + 1));
        if (++sent === body.length) {
          clearInterval(drip);
          res.end();
        }
      }, 40);
      return true;
    };
    const file = join(out(), 'plank.mp4');
    const r = await cli(['video', 'Plank', 'demo', '-o', file, '--timeout', '300ms', '--limit-rate', '20', '--retries', '0']);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(file).equals(body)).toBe(true);
  });
});
