import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sampleCatalogueDir } from '../../src/server/sandbox.js';

describe('the sandbox', () => {
  it('finds the sample catalogue at the package root', () => {
    expect(sampleCatalogueDir()).toBe(fileURLToPath(new URL('../../sample', import.meta.url)));
    expect(existsSync(join(sampleCatalogueDir(), 'exercises.jsonl'))).toBe(true);
  });

  it('finds the same sample from the built module in dist/', async () => {
    const built = fileURLToPath(new URL('../../dist/server/sandbox.js', import.meta.url));
    const mod = (await import(built)) as typeof import('../../src/server/sandbox.js');
    expect(mod.sampleCatalogueDir()).toBe(sampleCatalogueDir());
  });
});

describe('--sandbox with the built CLI', () => {
  it('answers without any key or network, then exits', async () => {
    const { runCli } = await import('../helpers/run-cli.js');
    const show = await runCli(['--sandbox', '--json', 'show', '90/90 Hip Switch'], { timeoutMs: 15_000 });
    expect(show.code).toBe(0);
    expect(JSON.parse(show.stdout)).toMatchObject({ id: '90_90_Hip_Switch', name: '90/90 Hip Switch' });
    // The sandbox key is the premium one: records list the media.
    const plank = await runCli(['--sandbox', '--json', 'show', 'Plank'], { timeoutMs: 15_000 });
    expect(JSON.parse(plank.stdout).premiumVideos).toEqual(['demo']);
    const ids = await runCli(['--sandbox', 'ids', '--all', '--format', 'jsonl'], { timeoutMs: 15_000 });
    expect(ids.code).toBe(0);
    const lines = ids.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).id);
    expect(new Set(lines).size).toBe(lines.length);
    expect(lines.length).toBeGreaterThanOrEqual(60);
  });
});
