/**
 * dist/completion.json, written by the build from the real program: it must match the
 * program flag for flag, and a flag added to the program must show up in it.
 */
import { readFileSync } from 'node:fs';
import { Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { ENUMS, type EnumName } from '../../src/catalogue/enums.js';
import { parseEnumValue } from '../../src/catalogue/enum-parse.js';
import { buildProgram } from '../../src/cli.js';
import type { CommandSpec, CompletionData } from '../../src/completion/data.js';
import { describeProgram } from '../../src/completion/describe-program.js';
import { friendlyEnumValue } from '../../src/catalogue/enum-words.js';
import { CONFIG_KEYS } from '../../src/config/settings.js';

const DATA_FILE = new URL('../../dist/completion.json', import.meta.url);

function fullProgram(): Command {
  return buildProgram({
    context() {
      throw new Error('not run');
    },
  });
}

function find(spec: CommandSpec, path: readonly string[]): CommandSpec | undefined {
  let at: CommandSpec | undefined = spec;
  for (const name of path) at = at?.commands.find((c) => c.name === name);
  return at;
}

describe('dist/completion.json', () => {
  const data = JSON.parse(readFileSync(DATA_FILE, 'utf8')) as CompletionData;

  it('is what the program built from the sources describes (the build regenerates it)', () => {
    expect(data).toEqual(describeProgram(fullProgram(), CONFIG_KEYS));
  });

  it('holds every flag and subcommand the program declares', () => {
    const walk = (cmd: Command, path: string[]): void => {
      const spec = find(data.program, path);
      expect(spec, path.join(' ')).toBeDefined();
      for (const option of cmd.options) {
        if (option.hidden) continue;
        const flags = spec!.options.flatMap((o) => o.flags);
        if (option.long) expect(flags, `${path.join(' ')} ${option.long}`).toContain(option.long);
        if (option.short) expect(flags, `${path.join(' ')} ${option.short}`).toContain(option.short);
      }
      for (const sub of cmd.commands) walk(sub, [...path, sub.name()]);
    };
    walk(fullProgram(), []);
    expect(find(data.program, ['download'])!.options.find((o) => o.flags.includes('--dir'))).toMatchObject({ value: 'required', complete: { kind: 'dirs' } });
    expect(find(data.program, ['image'])!.options.find((o) => o.flags.includes('--output'))).toMatchObject({
      flags: ['-o', '--output'],
      complete: { kind: 'files' },
    });
  });

  it('gives every enum filter flag its values in the friendly spelling', () => {
    const query = find(data.program, ['query'])!;
    const valuesOf = (flag: string): string[] | undefined => {
      const complete = query.options.find((o) => o.flags.includes(flag))?.complete;
      return complete && 'values' in complete ? complete.values : undefined;
    };
    expect(valuesOf('--muscle')).toContain('lower back');
    expect(valuesOf('--primary-muscle')).toEqual(valuesOf('--muscle'));
    expect(valuesOf('--secondary-muscle')).toEqual(valuesOf('--muscle'));
    expect(valuesOf('--equipment')).toContain('ez curl bar');
    expect(valuesOf('--equipment')).toContain('body only');
    expect(valuesOf('--category')).toContain('olympic weightlifting');
    expect(valuesOf('--force')).toEqual(['pull', 'push', 'static']);
  });
});

describe('describeProgram', () => {
  it('picks up a new flag, command and argument with no change to completion', () => {
    const program = new Command('exercises').option('--brand-new <dir>', 'somewhere');
    program
      .command('mirror')
      .argument('<dir>', 'where')
      .addOption(new Option('--mode <mode>', 'how').choices(['fast', 'slow']))
      .option('--hidden-one', 'x');
    program.commands[0]!.options.at(-1)!.hidden = true;
    const data = describeProgram(program, []);
    expect(data.program.options.find((o) => o.flags.includes('--brand-new'))).toEqual({
      flags: ['--brand-new'],
      description: 'somewhere',
      value: 'required',
      complete: { kind: 'dirs' },
    });
    const mirror = find(data.program, ['mirror'])!;
    expect(mirror.args).toEqual([{ name: 'dir', variadic: false, complete: { kind: 'dirs' } }]);
    expect(mirror.options.find((o) => o.flags.includes('--mode'))?.complete).toEqual({ values: ['fast', 'slow'] });
    expect(mirror.options.some((o) => o.flags.includes('--hidden-one'))).toBe(false);
    expect(mirror.options.some((o) => o.flags.includes('--help'))).toBe(true);
  });
});

describe('friendly enum spelling', () => {
  it('is accepted back as the exact value by the CLI for every enum value', () => {
    for (const name of Object.keys(ENUMS) as EnumName[]) {
      for (const value of ENUMS[name]) {
        const friendly = friendlyEnumValue(value);
        expect(friendly).toBe(friendly.toLowerCase());
        expect(parseEnumValue(name, friendly)).toBe(value);
      }
    }
    expect(friendlyEnumValue('E_Z_CURL_BAR')).toBe('ez curl bar');
    expect(friendlyEnumValue('LOWER_BACK')).toBe('lower back');
  });
});
