/**
 * The settings table (src/config/settings-table.ts) as a user meets it: one parser per setting
 * for the flag, the variable, `config set` and the stored file; `config set` checking a value
 * against what it is used for; `help defaults` in `config list`'s units; the Context told
 * which command runs.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Context } from '../../src/context.js';
import { sampleCatalogueDir } from '../../src/server/sandbox.js';
import { SETTINGS } from '../../src/config/settings-table.js';
import { GLOBAL_FLAGS, CONFIG_KEYS, DEFAULT_GLOBALS, resolveSettings } from '../../src/config/settings.js';
import { environmentVariables } from '../../src/config/settings-docs.js';
import { isolatedHome } from '../helpers/run-cli.js';
import { runInProcess } from '../helpers/test-context.js';

/** `config list --json` under `env`, with the given flags first. */
async function listed(env: Record<string, string>, flags: string[] = []): Promise<Record<string, { value: unknown; source: string; origin?: string }>> {
  const r = await runInProcess([...flags, 'config', 'list', '--json'], { env });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

describe('one declaration per setting', () => {
  it('gives each flag, config key and variable to one row, and every view reads the rows', () => {
    const names = SETTINGS.map((s) => s.name);
    expect(new Set(names).size).toBe(names.length);
    expect(GLOBAL_FLAGS.map((f) => f.name)).toEqual(SETTINGS.filter((s) => s.flag).map((s) => s.name));
    expect(CONFIG_KEYS.map((k) => k.name)).toEqual(SETTINGS.filter((s) => s.stored).map((s) => s.name));
    for (const { variable } of SETTINGS.filter((s) => s.variable)) expect(environmentVariables().map((v) => v.name)).toContain(variable);
  });
});

describe('--deadline takes what the variable and config set take (issue 28)', () => {
  for (const [given, seconds] of [
    ['2m', 120],
    ['90s', 90],
    ['45', 45],
    ['0', 0],
  ] as const) {
    it(`--deadline ${given} is ${seconds} s, from the flag, the variable and the stored setting alike`, async () => {
      const home = isolatedHome();
      expect((await listed({ HOME: home }, ['--deadline', given])).deadline).toMatchObject({ value: seconds, source: 'flag', origin: '--deadline' });
      expect((await listed({ HOME: home, EXERCISES_DEADLINE: given })).deadline).toMatchObject({ source: 'env' });
      const set = await runInProcess(['config', 'set', 'deadline', given], { env: { HOME: home } });
      expect(set.code, set.stderr).toBe(0);
      expect((await listed({ HOME: home })).deadline).toMatchObject({ value: seconds, source: 'config' });
    });
  }

  it('refuses a bad duration in each place with the same sentence, naming where it came from', async () => {
    const home = isolatedHome();
    const flag = await runInProcess(['--deadline', '2 weeks', 'config', 'list'], { env: { HOME: home } });
    const set = await runInProcess(['config', 'set', 'deadline', '2 weeks'], { env: { HOME: home } });
    const variable = await runInProcess(['--sandbox', 'ids', '--limit', '1'], { env: { HOME: home, EXERCISES_DEADLINE: '2 weeks' } });
    for (const [r, name] of [
      [flag, '--deadline'],
      [set, 'deadline'],
      [variable, 'EXERCISES_DEADLINE'],
    ] as const) {
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`${name} must be a duration such as 5s, 90m, 24h or a number of seconds, between 0s and 24h, not "2 weeks"`);
    }
    mkdirSync(join(home, '.config', 'exercises'), { recursive: true });
    writeFileSync(join(home, '.config', 'exercises', 'config.json'), JSON.stringify({ deadline: '2 weeks' }));
    const stored = await runInProcess(['--sandbox', 'ids', '--limit', '1'], { env: { HOME: home } });
    expect(stored.code).toBe(2);
    expect(stored.stderr).toContain('The stored deadline must be a duration');
    // config list still shows it, to be fixed
    expect((await listed({ HOME: home })).deadline).toMatchObject({ value: '2 weeks', source: 'config' });
  });
});

describe('a duration is milliseconds inside, in its row’s unit at the edges', () => {
  it('cache-ttl: typed and stored in seconds, read as ms, shown as a duration', async () => {
    const home = isolatedHome();
    const set = await runInProcess(['config', 'set', 'cache-ttl', '3600'], { env: { HOME: home } });
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(home, '.config', 'exercises', 'config.json'), 'utf8'))).toEqual({ 'cache-ttl': 3600 });
    expect(resolveSettings({ env: { HOME: home }, globals: { ...DEFAULT_GLOBALS } }).cacheTtl).toBe(3_600_000);
    expect((await listed({ HOME: home }))['cache-ttl']).toMatchObject({ value: 3600, source: 'config' });
    expect((await runInProcess(['config', 'get', 'cache-ttl'], { env: { HOME: home } })).stdout).toBe('1h\n');
    expect(resolveSettings({ env: { HOME: home }, globals: { ...DEFAULT_GLOBALS, timeout: 500 } }).timeout).toBe(500);
  });
});

describe('config set checks a value against what it is used for (issue 31)', () => {
  it('refuses a tag that names no language, before storing it', async () => {
    const home = isolatedHome();
    const r = await runInProcess(['config', 'set', 'lang', 'xx'], { env: { HOME: home } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/lang must be a language tag such as en-GB or de-DE: "xx" names no language/);
    expect((await listed({ HOME: home })).lang).toMatchObject({ value: 'en-GB', source: 'default' });
    expect((await runInProcess(['config', 'set', 'lang', 'fr-FR'], { env: { HOME: home } })).code).toBe(0);
    // The flag and the variable go through the same parser.
    const flag = await runInProcess(['--sandbox', '--lang', 'xx', 'ids', '--limit', '1'], { env: { HOME: isolatedHome() } });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('--lang must be a language tag');
  });

  it('with a catalogue in force, takes only the languages it has, and names them', async () => {
    const home = isolatedHome();
    const env = { HOME: home, EXERCISES_CATALOGUE: sampleCatalogueDir() };
    const refused = await runInProcess(['config', 'set', 'lang', 'fr-FR'], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`lang fr-FR is not a language of the catalogue at ${sampleCatalogueDir()}: it has en-GB, de-DE`);
    expect((await runInProcess(['config', 'set', 'lang', 'de-DE'], { env })).code).toBe(0);
    expect((await listed({ HOME: home })).lang).toMatchObject({ value: 'de-DE', source: 'config' });
  });

  it('refuses a whole number out of bounds with the value it was given', async () => {
    const r = await runInProcess(['config', 'set', 'retries', '11'], { env: { HOME: isolatedHome() } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('retries must be a whole number between 0 and 10, not "11"');
  });
});

describe('help defaults', () => {
  it('is listed in the top-level help and shows durations as config list does', async () => {
    const help = await runInProcess(['--help']);
    expect(help.stdout).toMatch(/HELP TOPICS\n(.*\n)*? {2}defaults: +Every default/);
    const env = { HOME: isolatedHome() };
    const defaults = await runInProcess(['help', 'defaults'], { env, columns: 200 });
    const list = await listed(env);
    expect(defaults.stdout).toMatch(/^ {2}timeout +30s \(--timeout, config timeout\)$/m);
    expect(defaults.stdout).not.toContain('30000');
    for (const key of ['timeout', 'cache-ttl', 'retries'] as const) {
      const shown = (await runInProcess(['config', 'get', key], { env })).stdout.trim();
      expect(defaults.stdout).toMatch(new RegExp(`^ {2}${key} +${shown} `, 'm'));
      expect(list[key]!.source).toBe('default');
    }
  });
});

describe('the Context is told which command runs', () => {
  /** The ctx.command each command's run() sees for a command line. */
  async function commandOf(args: string[]): Promise<string | undefined> {
    let seen: Context['command'] = 'not run';
    const capture = async (_options: unknown, ctx: Context): Promise<void> => {
      seen = ctx.command;
    };
    const r = await runInProcess(args, { runners: { show: capture, mirror: capture, auth: capture, download: capture } });
    expect(r.code, r.stderr).toBe(0);
    return seen;
  }

  it('names the command commander resolved, not a word of the command line', async () => {
    expect(await commandOf(['--sandbox', 'show', 'mirror'])).toBe('show');
    expect(await commandOf(['show', 'download', '--lang', 'de-DE'])).toBe('show');
    expect(await commandOf(['--quiet', 'mirror', 'show'])).toBe('mirror');
    expect(await commandOf(['auth', 'status'])).toBe('auth');
  });
});
