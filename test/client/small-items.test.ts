/** Small things a new user trips on: a free key asking for media, the --lang fallback note. */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FREE_KEY, type CatalogueServer, startServer } from '../helpers/server.js';
import { runInProcess } from '../helpers/test-context.js';
import { serverEnv } from './fixtures.js';
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
