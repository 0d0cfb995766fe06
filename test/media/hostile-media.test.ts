/**
 * The media commands end to end against servers that would make files collide or never end:
 * distinct ids that differ only in case or Unicode normalisation each get their own folder,
 * a job that cannot have a path is named on stderr with exit 7, and oversized media is refused
 * with exit 7 (bulk) or 6 (one file), nothing left on disk.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join, relative } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { collisionKey } from '../../src/media/safe-path.js';
import { runCli } from '../helpers/run-cli.js';
import { type CatalogueServer, PREMIUM_KEY, startServer } from '../helpers/server.js';
import { closeDelimitedResponse, endlessResponse } from '../helpers/faults.js';
import { type MediaCatalogue, makeMediaCatalogue, pngBytes } from './media-catalogue.js';
import { tempDir } from '../helpers/temp.js';

const hash = (value: string): string => createHash('sha256').update(value, 'utf8').digest('hex').slice(0, 8);
const NFC = 'Caf\u00e9';
const NFD = 'Cafe\u0301';
const CRAFTED = `Plank-${hash('plank')}`; // the folder "plank" would step aside to

type Intercept = (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;
let intercept: Intercept | undefined;
const servers: CatalogueServer[] = [];
let lookalikes: { server: CatalogueServer; catalogue: MediaCatalogue };
let crafted: { server: CatalogueServer; catalogue: MediaCatalogue };

async function serve(ids: string[]): Promise<{ server: CatalogueServer; catalogue: MediaCatalogue }> {
  const catalogue = makeMediaCatalogue(ids.map((id, i) => ({ id, name: `Exercise ${i}`, images: { start: 2_000 + i } })));
  const server = await startServer({
    dir: catalogue.dir,
    intercept: (req, res) => (intercept ? intercept(req, res) : false),
  });
  servers.push(server);
  return { server, catalogue };
}

beforeAll(async () => {
  lookalikes = await serve([NFC, NFD, 'Plank', 'plank']);
  crafted = await serve(['Plank', CRAFTED, 'plank']);
});
afterAll(() => Promise.all(servers.map((s) => s.close())));
afterEach(() => {
  intercept = undefined;
  for (const s of servers) s.requests.length = 0;
});

const cli = (server: CatalogueServer, args: string[]) => runCli(['--base-url', server.url, ...args], { env: { EXERCISES_API_KEY: PREMIUM_KEY } });
const out = (): string => tempDir('media-hostile-');
const mediaRequests = (server: CatalogueServer) => server.requests.filter((r) => r.path.startsWith('/images/'));

function filesUnder(dir: string): string[] {
  const found: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else found.push(relative(dir, join(d, e.name)));
    }
  };
  walk(dir);
  return found.sort();
}

describe('distinct ids sharing a path', () => {
  it('gives ids that differ only in case or normalisation their own folders: every file fetched, exit 0', async () => {
    const { server, catalogue } = lookalikes;
    const dir = out();
    const r = await cli(server, ['download', '--all', '--images', '--dir', dir]);
    expect(r.code, r.stderr).toBe(0);
    const files = filesUnder(dir);
    expect(files).toHaveLength(4);
    expect(new Set(files.map(collisionKey)).size).toBe(4); // distinct even where case and normalisation fold
    expect(mediaRequests(server)).toHaveLength(4);
    // Each folder holds its own id's image, byte for byte.
    const bytesOf = (id: string) => readFileSync(catalogue.file('image', id, 'start'));
    const onDisk = files.map((f) => readFileSync(join(dir, f)));
    for (const id of [NFC, NFD, 'Plank', 'plank']) expect(onDisk.filter((b) => b.equals(bytesOf(id)))).toHaveLength(1);
    expect(files).toContain(`${NFC}/start.png`);
    expect(files).toContain('Plank/start.png');
    expect(files).toContain(`plank-${hash('plank')}/start.png`);

    // The same run again finds every file complete.
    for (const s of servers) s.requests.length = 0;
    const again = await cli(server, ['download', '--all', '--images', '--dir', dir]);
    expect(again.code, again.stderr).toBe(0);
    expect(mediaRequests(server)).toHaveLength(0);
  });

  it('names a job that cannot have a path of its own on stderr, exits 7, and fetches the others', async () => {
    const { server } = crafted;
    const dir = out();
    const r = await cli(server, ['download', '--all', '--images', '--dir', dir]);
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/Skipped: image "start" of exercise plank: Left out: its folder would be the same as another exercise's/);
    expect(r.stderr).toMatch(/1 media entry listed by the service could not be fetched/);
    expect(filesUnder(dir)).toEqual([`${CRAFTED}/start.png`, 'Plank/start.png']);
  });
});

describe('media without a size bound', () => {
  const announce300MB: Intercept = (req, res) => {
    if (req.url !== '/images/Plank/premium/start.png') return false;
    endlessResponse(res, pngBytes(64), { contentType: 'image/png', announce: 300_000_000 });
    return true;
  };

  it('refuses an image announced at 300 MB: exit 7 in a bulk run, named, nothing on disk, the others fetched', async () => {
    intercept = announce300MB;
    const { server } = lookalikes;
    const dir = out();
    const r = await cli(server, ['download', 'Plank', NFC, '--images', '--dir', dir]);
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/failed: image "start" of exercise Plank: The server announced 300000000 bytes .* more than the 50 MiB allowed for a PNG image/);
    expect(filesUnder(dir)).toEqual([`${NFC}/start.png`]);
  });

  it('refuses it with exit 6 for one file (-o), nothing left', async () => {
    intercept = announce300MB;
    const { server } = lookalikes;
    const dir = out();
    const r = await cli(server, ['image', 'Plank', 'start', '-o', join(dir, 'x.png')]);
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/more than the 50 MiB allowed/);
    expect(filesUnder(dir)).toEqual([]);
  });

  it('refuses a body whose end cannot be shown (no length, no chunked framing): exit 7, nothing on disk', async () => {
    intercept = (req, res) => {
      if (req.url !== '/images/Plank/premium/start.png') return false;
      closeDelimitedResponse(res, pngBytes(5_000), { contentType: 'image/png' });
      return true;
    };
    const { server } = lookalikes;
    const dir = out();
    const r = await cli(server, ['download', 'Plank', '--images', '--dir', dir]);
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/failed: image "start" of exercise Plank: .*cannot be shown complete/);
    expect(filesUnder(dir)).toEqual([]);
  });
});
