/**
 * Each command's options as its action builds them, with run() replaced through the seam
 * (register's runF, here runInProcess's `runners`): flags parsed and checked, no work done.
 * No server and no key exist in these runs, so a run() that really ran would fail with exit 3.
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CommandOptions, Runners } from '../../src/commands/index.js';
import type { Context } from '../../src/context.js';
import { DEFAULT_DOWNLOAD_CONCURRENCY, DEFAULT_SERVE_HOST, DEFAULT_SERVE_PORT } from '../../src/defaults.js';
import { runInProcess } from '../helpers/test-context.js';

/** Runs the command line with `name`'s run replaced; returns what the replacement was given. */
async function optionsOf<K extends keyof CommandOptions>(name: K, args: string[], input?: string) {
  const seen: Array<{ options: CommandOptions[K]; ctx: Context }> = [];
  const runners = { [name]: async (options: CommandOptions[K], ctx: Context) => void seen.push({ options, ctx }) } as Runners;
  const result = await runInProcess(args, { runners, ...(input !== undefined ? { input } : {}) });
  return { result, options: seen[0]?.options, ctx: seen[0]?.ctx, calls: seen.length };
}

describe('options built by the actions', () => {
  it('query: friendly enum spellings and comma lists normalised, paging worked out', async () => {
    const { result, options } = await optionsOf('query', ['query', '--muscle', 'Lower Back', '--category', 'strength,cardio', '--max', '3']);
    expect(result.code, result.stderr).toBe(0);
    expect(options).toEqual({ filters: { primaryMuscle: 'LOWER_BACK', category: ['STRENGTH', 'CARDIO'] }, paging: { limit: 3, follow: true, max: 3 } });
  });

  it('ids: the default page', async () => {
    const { options } = await optionsOf('ids', ['ids']);
    expect(options).toEqual({ paging: { limit: 10, follow: false } });
  });

  it('show: ids in order, `-` kept for run() to read stdin; the global options reach the context', async () => {
    const { options, ctx } = await optionsOf('show', ['--json', '--lang', 'de-DE', 'show', 'Plank', '-', 'Push Up']);
    expect(options).toEqual({ ids: ['Plank', '-', 'Push Up'] });
    expect(ctx?.globals).toMatchObject({ json: true, lang: 'de-DE' });
    expect(ctx?.argv).toEqual(['--json', '--lang', 'de-DE', 'show', 'Plank', '-', 'Push Up']);
  });

  it('image and video: names, the folder resolved, --overwrite', async () => {
    const image = await optionsOf('image', ['image', 'Plank', 'start', 'end', '--dir', 'media', '--overwrite']);
    expect(image.options).toEqual({ kind: 'image', idOrName: 'Plank', names: ['start', 'end'], dir: resolve('media'), overwrite: true });
    const video = await optionsOf('video', ['video', 'Plank', 'demo', '-o', 'plank.mp4']);
    expect(video.options).toEqual({ kind: 'video', idOrName: 'Plank', names: ['demo'], output: 'plank.mp4', dir: resolve('.'), overwrite: false });
  });

  it('download: kinds, filters and the defaults', async () => {
    const { options } = await optionsOf('download', ['download', '--muscle', 'chest', '--images', '--dir', 'out']);
    expect(options).toEqual({
      ids: [],
      filters: { primaryMuscle: 'CHEST' },
      all: false,
      kinds: ['image'],
      dir: resolve('out'),
      dirGiven: 'out',
      concurrency: DEFAULT_DOWNLOAD_CONCURRENCY,
      skipExisting: true,
      dryRun: false,
      failFast: false,
    });
  });

  it('download: --overwrite re-downloads; --force stays the Force filter', async () => {
    const { options } = await optionsOf('download', ['download', 'Push_Up', '--overwrite', '--dir', 'media']);
    expect(options).toMatchObject({ ids: ['Push_Up'], skipExisting: false, dir: resolve('media') });
    const listing = await optionsOf('download', ['download', '--force', 'pull', '--dir', 'media']);
    expect(listing.options).toMatchObject({ filters: { force: ['PULL'] }, skipExisting: true });
  });

  it('auth: one options type per subcommand', async () => {
    expect((await optionsOf('auth', ['auth', 'status', '--no-verify'])).options).toEqual({ action: 'status', verify: false });
    expect((await optionsOf('auth', ['auth', 'login', '--with-key', '--verify'])).options).toEqual({ action: 'login', withKey: true, verify: true });
    expect((await optionsOf('auth', ['auth', 'logout'])).options).toEqual({ action: 'logout' });
  });

  it('config set: the value checked and normalised before run()', async () => {
    expect((await optionsOf('config', ['config', 'set', 'timeout', '10000'])).options).toEqual({ action: 'set', key: 'timeout', value: 10000 });
    expect((await optionsOf('config', ['config', 'set', 'base-url', 'http://127.0.0.1:9/x/'])).options).toEqual({
      action: 'set',
      key: 'base-url',
      value: 'http://127.0.0.1:9/x',
    });
  });

  it('serve: the defaults from src/defaults.ts, keys parsed into plans (and labels)', async () => {
    expect((await optionsOf('serve', ['serve'])).options).toEqual({ host: DEFAULT_SERVE_HOST, port: DEFAULT_SERVE_PORT, logFormat: 'text' });
    expect((await optionsOf('serve', ['serve', 'dir', '--port', '0', '--key', 'a:b:premium'])).options).toEqual({
      dir: 'dir',
      host: DEFAULT_SERVE_HOST,
      port: 0,
      logFormat: 'text',
      keys: { 'a:b': { plan: 'premium' } },
    });
  });
});

describe('usage errors come from the action, before run()', () => {
  const refused: Array<[keyof CommandOptions, string[], RegExp]> = [
    ['show', ['show', ''], /cannot be empty/],
    ['query', ['query', '--muscle', 'chesst'], /Did you mean chest/],
    ['ids', ['ids', '--after', 'a', '--before', 'b'], /--after and --before/],
    ['image', ['image', 'Plank', 'start', '-o', 'a.png', '--dir', 'd'], /-o and --dir cannot be used together/],
    ['download', ['download', 'Plank', '--all'], /not both/],
    ['download', ['download'], /Say which exercises/],
    ['auth', ['auth', 'login'], /not a terminal/],
    ['config', ['config', 'set', 'api-key', 'x'], /auth login/],
    ['config', ['config', 'get', 'colour'], /Unknown config key/],
    ['serve', ['serve', '--key', 'k:gold'], /--key must be KEY:PLAN/],
  ];
  for (const [name, args, message] of refused) {
    it(`${args.join(' ')} → exit 2`, async () => {
      const { result, calls } = await optionsOf(name, args);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(calls).toBe(0);
    });
  }
});

describe('runCli in-process', () => {
  it("writes help and the version to the context's stdout and exits 0", async () => {
    const help = await runInProcess(['--help'], { columns: 200 });
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/\nUSAGE\n {2}exercises <command>/);
    const flags = await runInProcess(['help', 'global-flags'], { columns: 200 });
    // The default in the units `config list` shows.
    expect(flags.stdout).toMatch(/--timeout <duration> +Give up on a request after this long without progress: 30s, 2m, 500ms or milliseconds \(default 30s\)/);
    const version = await runInProcess(['--version', '--quiet']);
    expect(version.code).toBe(0);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });

  it("writes commander's own errors to the context's stderr with exit 2", async () => {
    const r = await runInProcess(['--no-such-flag']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^Error: exercises has no --no-such-flag flag\.\nRun `exercises --help` for usage\.\n$/);
    expect(r.stdout).toBe('');
  });
});
