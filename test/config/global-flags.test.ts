/**
 * The global flags' one declaration (src/config/settings.ts) and the defaults table built
 * from it (src/config/settings-docs.ts): what commander is given, what comes back, what help prints.
 */
import { describe, expect, it } from 'vitest';
import { Command } from 'commander';
import { buildProgram, globalOptions } from '../../src/cli.js';
import { helpTopicText } from '../../src/commands/shared/help.js';
import { defaultsTable } from '../../src/config/settings-docs.js';
import { DEFAULT_GLOBALS, GLOBAL_FLAGS, flagHelp, flagName, readGlobalFlags, CONFIG_KEYS, setting } from '../../src/config/settings.js';
import { formatDuration } from '../../src/config/parsers.js';

const program = () =>
  buildProgram({
    context: () => {
      throw new Error('no command runs in this test');
    },
  });

describe('global flags', () => {
  it('with no flag given, switches are off and --no-* flags on', () => {
    expect(DEFAULT_GLOBALS).toEqual({
      color: true,
      verbose: false,
      quiet: false,
      sandbox: false,
      allowInsecure: false,
      offline: false,
      refresh: false,
      cache: true,
      pager: true,
      input: true,
      logProbes: false,
    });
  });

  it('declares every row on the program, in order, with its help line', () => {
    const options = program().options.filter((o) => o.long !== '--version');
    expect(options.map((o) => o.flags)).toEqual(GLOBAL_FLAGS.map((f) => f.flag));
    expect(options.map((o) => o.description)).toEqual(GLOBAL_FLAGS.map(flagHelp));
  });

  it('reads parsed values back, switches as booleans', async () => {
    const p = program();
    p.parseOptions(['--no-color', '--timeout', '5', '-v', '--json=id', '--base-url', 'http://127.0.0.1:1']);
    const globals = globalOptions(p);
    expect(globals).toMatchObject({ color: false, timeout: 5, verbose: true, quiet: false, json: 'id', baseUrl: 'http://127.0.0.1:1', cache: true });
    expect(readGlobalFlags({})).toMatchObject({ ...DEFAULT_GLOBALS, timeout: undefined });
  });

  it('refuses a number out of its bounds before any command runs', () => {
    const p = program();
    p.configureOutput({ writeErr: () => {} });
    expect(() => p.parseOptions(['--retries', '99'])).toThrow(/--retries/);
  });

  it('names the environment variable of the setting a flag overrides', () => {
    const budget = GLOBAL_FLAGS.find((f) => f.name === 'budget')!;
    expect(flagHelp(budget)).toMatch(/\(default none; env EXERCISES_BUDGET\)$/);
    const apiKey = GLOBAL_FLAGS.find((f) => f.name === 'api-key')!;
    expect(flagHelp(apiKey)).toMatch(/shell history; env EXERCISES_API_KEY\)$/);
    // A switch states no default.
    expect(flagHelp(GLOBAL_FLAGS.find((f) => f.name === 'quiet')!)).toBe('no progress or notices on stderr');
    expect(flagName('allowInsecure')).toBe('--allow-insecure');
    expect(flagName('color')).toBe('--no-color');
  });
});

describe('defaults table', () => {
  it('has a row per config key, with the flag and variable that override it', () => {
    const rows = defaultsTable();
    for (const spec of CONFIG_KEYS) expect(rows.find((r) => r.configKey === spec.name)).toBeDefined();
    // In the units `config list` shows (30s, not 30000).
    expect(rows.find((r) => r.name === 'timeout')).toEqual({
      name: 'timeout',
      value: formatDuration(setting('timeout').default as number),
      flag: '--timeout',
      configKey: 'timeout',
    });
    expect(rows.find((r) => r.name === 'timeout')!.value).toBe('30s');
    expect(rows.find((r) => r.name === 'budget')).toMatchObject({ value: 'none', flag: '--budget', env: 'EXERCISES_BUDGET' });
  });

  it('is what `help defaults` prints', () => {
    const text = helpTopicText('defaults', 200, new Command());
    for (const row of defaultsTable()) expect(text).toContain(row.value);
    expect(text).toMatch(/cache-ttl\s+24h\s+\(config cache-ttl\)/);
  });
});
