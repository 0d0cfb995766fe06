/** A `.part` left by a download stopped midway: listed as `resume` by --dry-run (the summary's count: bulk.test.ts). */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/test-context.js';
import { tempDir } from '../helpers/temp.js';
import { sampleCatalogueDir } from '../../src/server/sandbox.js';

describe('download --dry-run', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('lists a half-downloaded file as resume, and counts it among the requests', async () => {
    const dir = tempDir('exercises-dry-resume-');
    dirs.push(dir);
    mkdirSync(join(dir, 'Plank'), { recursive: true });
    writeFileSync(join(dir, 'Plank', 'start.png.part'), Buffer.alloc(100, 1));
    const r = await runInProcess(['--sandbox', 'download', 'Plank', '--images', '--dir', dir, '--dry-run']);
    expect(r.code, r.stderr).toBe(0);
    const rows = r.stdout
      .trim()
      .split('\n')
      .map((l) => l.split('\t'));
    expect(rows.map((row) => [row[0], row[3]])).toEqual([
      ['resume', 'start'],
      ['fetch', 'end'],
    ]);
    expect(r.stderr).toContain('would fetch 2 files (1 resumed from a .part) with 2 media requests');
  });

  it('a complete file already there is a skip, beside one to resume, also with --dir given relative', async () => {
    const dir = tempDir('exercises-dry-skip-');
    dirs.push(dir);
    mkdirSync(join(dir, 'Plank'), { recursive: true });
    writeFileSync(join(dir, 'Plank', 'start.png'), readFileSync(join(sampleCatalogueDir(), 'images', 'Plank', 'premium', 'start.png')));
    writeFileSync(join(dir, 'Plank', 'end.png.part'), Buffer.alloc(100, 1));
    for (const given of [dir, relative(process.cwd(), dir)]) {
      const r = await runInProcess(['--sandbox', 'download', 'Plank', '--images', '--dir', given, '--dry-run']);
      expect(r.code, r.stderr).toBe(0);
      expect(
        r.stdout
          .trim()
          .split('\n')
          .map((l) => l.split('\t').slice(0, 4).join(' ')),
      ).toEqual([expect.stringMatching(/^skip .* start$/), expect.stringMatching(/^resume .* end$/)]);
    }
  });

  it('an empty .part is no resume', async () => {
    const dir = tempDir('exercises-dry-empty-part-');
    dirs.push(dir);
    mkdirSync(join(dir, 'Plank'), { recursive: true });
    writeFileSync(join(dir, 'Plank', 'start.png.part'), '');
    const r = await runInProcess(['--sandbox', 'download', 'Plank', '--images', '--dir', dir, '--dry-run']);
    expect(r.stdout.split('\n')[0]!.split('\t')[0]).toBe('fetch');
  });

  it('prints paths as --dir was given: relative stays relative, absolute stays absolute', async () => {
    const dir = tempDir('exercises-dry-paths-');
    dirs.push(dir);
    const given = relative(process.cwd(), dir);
    const rel = await runInProcess(['--sandbox', 'download', 'Plank', '--images', '--dir', given, '--dry-run']);
    expect(rel.code, rel.stderr).toBe(0);
    expect(rel.stdout.split('\n')[0]!.split('\t')[4]).toBe(join(given, 'Plank', 'start.png'));
    const abs = await runInProcess(['--sandbox', 'download', 'Plank', '--images', '--dir', dir, '--dry-run']);
    expect(abs.stdout.split('\n')[0]!.split('\t')[4]).toBe(join(dir, 'Plank', 'start.png'));
    // The JSON is for programs: absolute either way.
    const json = await runInProcess(['--sandbox', 'download', 'Plank', '--images', '--dir', given, '--dry-run', '--format', 'json']);
    expect((JSON.parse(json.stdout) as { files: Array<{ path: string }> }).files[0]!.path).toBe(join(dir, 'Plank', 'start.png'));
  });
});
