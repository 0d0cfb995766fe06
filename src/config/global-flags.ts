/**
 * The global flags: the rows of the settings table (settings-table.ts) that have a flag. cli.ts
 * declares them on the program from here and reads them back into GlobalOptions; messages name
 * them from here. Below the Context (src/context.ts carries them as ctx.globals), so config/
 * reads them without reaching up.
 */
import { type GlobalOptions, type Setting, SETTINGS, settingHelp } from './settings-table.js';

export type { GlobalOptions, OutputFormat } from './settings-table.js';

/** A setting with a flag: the flag's spelling and the GlobalOptions field it fills. */
export type GlobalFlag = Setting & { flags: string; option: keyof GlobalOptions };

/** Every global flag, in the order `--help` lists them. */
export const GLOBAL_FLAGS: readonly GlobalFlag[] = SETTINGS.filter((s): s is GlobalFlag => s.flags !== undefined && s.option !== undefined);

/** The help line: the description, the flag's own note, the default and the environment variable. */
export function flagHelp(flag: Setting): string {
  return settingHelp(flag, flag.flagNote);
}

/** The flag as typed (`--base-url`), for messages. */
export function flagName(key: keyof GlobalOptions): string {
  const spelling = GLOBAL_FLAGS.find((f) => f.option === key)!.flags;
  return /--[a-z-]+/.exec(spelling)![0];
}

/** A flag that takes no value: on/off (`--verbose`), or on unless given (`--no-color`). */
function isSwitch(flag: GlobalFlag): boolean {
  return !/[<[]/.test(flag.flags);
}

/** Off unless given (`--verbose`: false), on unless given (`--no-color`: true); flags with values: absent. */
export const DEFAULT_GLOBALS: Readonly<GlobalOptions> = Object.freeze(
  Object.fromEntries(GLOBAL_FLAGS.filter(isSwitch).map((f) => [f.option, f.flags.startsWith('--no-')])) as unknown as GlobalOptions,
);

/** commander's parsed values (program.opts()) as GlobalOptions: switches as booleans, values as given. */
export function readGlobalFlags(opts: Record<string, unknown>): GlobalOptions {
  const globals: Record<string, unknown> = {};
  for (const flag of GLOBAL_FLAGS) {
    const value = opts[flag.option];
    if (!isSwitch(flag)) globals[flag.option] = value;
    else globals[flag.option] = flag.flags.startsWith('--no-') ? value !== false : value === true;
  }
  return globals as unknown as GlobalOptions;
}
