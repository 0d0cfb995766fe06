/**
 * Class 5, distinct ids never share a path: ids that differ only by Unicode normalisation or
 * by case (one file on macOS and Windows) each get their own folder and their own bytes; no
 * job is dropped silently.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { collisionKey } from '../../src/media/safe-path.js';
import { type Attack, type HostileServer, json, listPage, pngBytes, send, startHostileServer } from '../helpers/hostile-server.js';
import { cli, filesUnder } from './support.js';
import { tempDir } from '../helpers/temp.js';

let server: HostileServer;
beforeAll(async () => (server = await startHostileServer()));
afterAll(() => server.close());
afterEach(() => server.reset());

const IDS = ['Caf\u00e9', 'Cafe\u0301', 'Plank', 'plank', 'PLANK'];
/** Each id's own image: seeded by its position, so a file holding another id's bytes shows. */
const imageOf = (id: string): Buffer => pngBytes(4_096, IDS.indexOf(id) + 1);

/** The record of the id in the path, and that id's image. */
function catalogue(): void {
  const idIn = (url: string, at: number): string => decodeURIComponent(url.split('?')[0]!.split('/')[at]!);
  const record: Attack = (req, res, s) => {
    const id = idIn(req.url!, 2);
    return json({ id, name: `Exercise ${id}`, premiumImages: ['start'] })(req, res, s);
  };
  server.route(/^\/exercise\/[^/?]+/, record);
  server.route(/^\/exercise\/(exerciseIds|query)/, listPage(IDS.map((id) => ({ id, name: `Exercise ${id}`, premiumImages: ['start'] }))));
  server.route(/^\/images\//, (req, res, s) => send(imageOf(idIn(req.url!, 2)), { contentType: 'image/png' })(req, res, s));
}

describe('distinct ids, distinct paths', () => {
  for (const how of ['named', '--all'] as const) {
    it(`ids differing by normalisation and case (${how}) each land in their own folder, byte for byte`, async () => {
      catalogue();
      const dir = tempDir();
      const args = how === 'named' ? ['download', ...IDS] : ['download', '--all'];
      const r = await cli(server, [...args, '--images', '--dir', dir]);
      expect(r.code, r.stderr).toBe(0);
      const files = filesUnder(dir);
      expect(files).toHaveLength(IDS.length);
      expect(new Set(files.map(collisionKey)).size).toBe(IDS.length); // distinct even where case and normalisation fold
      expect(server.count(/^\/images\//)).toBe(IDS.length);
      const onDisk = files.map((f) => readFileSync(join(dir, f)));
      for (const id of IDS)
        expect(
          onDisk.filter((b) => b.equals(imageOf(id))),
          id,
        ).toHaveLength(1);
    });
  }

  it('a second run skips every file: all in place, no media request', async () => {
    catalogue();
    const dir = tempDir();
    expect((await cli(server, ['download', ...IDS, '--images', '--dir', dir])).code).toBe(0);
    server.requests.length = 0;
    const again = await cli(server, ['download', ...IDS, '--images', '--dir', dir, '--format', 'json']);
    expect(again.code, again.stderr).toBe(0);
    expect(server.count(/^\/images\//)).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ skipped: IDS.length, failed: 0 });
  });
});
