/**
 * Reading what people give the CLI, one rule each: a command line's leading words, every setting
 * value wherever it is given (its error names where), and the stored settings file.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { RefusedFileError, readRegularFileSync } from '../util/safe-open.js';

/** How a flag takes a value: not at all, always (`--lang <code>`), or when attached (`--json[=fields]`). */
export type FlagArity = 'none' | 'required' | 'optional';

/** Each spelling of each flag, with its arity, from commander-style declarations. */
export function flagArities(declarations: readonly string[]): Record<string, FlagArity> {
  const arities: Record<string, FlagArity> = {};
  for (const declaration of declarations) {
    const arity: FlagArity = declaration.includes('<') ? 'required' : declaration.includes('[') ? 'optional' : 'none';
    for (const spelling of declaration.match(/--?[a-zA-Z][\w-]*/g) ?? []) arities[spelling] = arity;
  }
  return arities;
}

/**
 * The words a command line starts with (`--lang de-DE show Push_Up` → ['show', 'Push_Up']), by which
 * the CLI answers `version` and `help <topic>`. They end at the first flag that is not global, or at an optional
 * value not attached (`--json show`); the global flags met on the way are in `flags`.
 */
export function leadingWords(args: readonly string[], arities: Readonly<Record<string, FlagArity>>): { words: string[]; flags: string[] } {
  const words: string[] = [];
  const flags: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '-' || !arg.startsWith('-')) {
      words.push(arg);
      continue;
    }
    const flag = arg.startsWith('--') ? arg.split('=')[0]! : arg;
    const arity = Object.hasOwn(arities, flag) ? arities[flag] : undefined;
    if (arity === undefined || (arity === 'optional' && flag === arg)) break;
    flags.push(flag);
    if (arity === 'required' && flag === arg) i++;
  }
  return { words, flags };
}

/** A BCP 47 tag whose language ICU knows (`xx` is refused: the service would silently answer in its default). */
export function parseLangTag(value: string, name: string): string {
  const text = value.trim();
  const example = 'a language tag such as en-GB or de-DE';
  if (!/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(text)) {
    throw new UsageError(`${name} must be ${example}, not "${value}".`);
  }
  let names: Intl.DisplayNames | undefined;
  try {
    names = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });
  } catch {
    // no ICU: then the shape is all we check
  }
  // Without ICU's data no language is known at all (not even `de`): the shape is all we check.
  if (names && names.of('de') !== undefined && names.of(text.split('-')[0]!) === undefined) {
    throw new UsageError(`${name} must be ${example}: "${text}" names no language.`, {
      hint: 'The first part is an ISO 639 language code (en, de, es, fr…), the second a region (GB, DE…).',
    });
  }
  return text;
}

export function parseWholeNumber(value: string, name: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const text = value.trim();
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < min || n > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `between ${min} and ${max}`;
    throw new UsageError(`${name} must be a whole number ${range}, not "${value}".`);
  }
  return n;
}

const SWITCH_WORDS: Readonly<Record<string, boolean>> = { true: true, false: false, '1': true, '0': false, yes: true, no: false, on: true, off: false };

export function parseSwitch(value: string, name: string): boolean {
  const word = value.trim().toLowerCase();
  if (!Object.hasOwn(SWITCH_WORDS, word)) throw new UsageError(`${name} must be true or false (also 1/0, yes/no, on/off), not "${value}".`);
  return SWITCH_WORDS[word]!;
}

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export type DurationUnit = 'ms' | 's';

/** `5s` → 5000: a whole number with ms, s, m, h or d (bare: `unit`), within `bounds` (ms) and a whole number of `unit`. */
export function parseDuration(value: string, name: string, unit: DurationUnit, bounds: { min: number; max?: number }): number {
  const match = /^(\d+)\s*(ms|s|m|h|d)?$/i.exec(value.trim());
  const ms = match ? Number(match[1]) * UNIT_MS[(match[2] ?? unit).toLowerCase()]! : NaN;
  const max = bounds.max ?? Number.MAX_SAFE_INTEGER;
  if (!Number.isSafeInteger(ms / UNIT_MS[unit]!) || ms < bounds.min || ms > max) {
    const bare = unit === 'ms' ? 'milliseconds' : 'seconds';
    throw new UsageError(
      `${name} must be a duration such as 5s, 90m, 24h or a number of ${bare}, between ${formatDuration(bounds.min, unit)} and ${formatDuration(max, unit)}, not "${value}".`,
    );
  }
  return ms;
}

/** A duration in ms as a number of `unit`, as the settings file keeps it. */
export function durationIn(ms: number, unit: DurationUnit): number {
  return ms / UNIT_MS[unit]!;
}

/** 86400000 → `24h`, 1500 → `1500ms`: the largest unit that divides it; 0 in `zeroUnit`. */
export function formatDuration(ms: number, zeroUnit: DurationUnit = 'ms'): string {
  if (ms === 0) return `0${zeroUnit}`;
  if (ms % UNIT_MS.d! === 0 && ms > UNIT_MS.d!) return `${ms / UNIT_MS.d!}d`; // 7d, but 24h rather than 1d
  const unit = (['h', 'm', 's'] as const).find((u) => ms % UNIT_MS[u]! === 0) ?? 'ms';
  return `${ms / UNIT_MS[unit]!}${unit}`;
}

/** The environment a run reads (the Context's, never process.env). */
export type Env = Readonly<Record<string, string | undefined>>;

/** The CLI's user directories in `env`, where env-paths puts them (XDG on Linux, ~/Library on macOS, %APPDATA% on Windows). */
export function userDirs(env: Env, platform: NodeJS.Platform = process.platform): { config: string; cache: string } {
  const named = platform === 'win32' ? env.USERPROFILE : env.HOME;
  const home = named !== undefined && named !== '' ? named : homedir();
  if (platform === 'darwin') return { config: join(home, 'Library', 'Preferences', 'exercises'), cache: join(home, 'Library', 'Caches', 'exercises') };
  if (platform === 'win32') {
    const appData = env.APPDATA || join(home, 'AppData', 'Roaming');
    const localAppData = env.LOCALAPPDATA || join(home, 'AppData', 'Local');
    return { config: join(appData, 'exercises', 'Config'), cache: join(localAppData, 'exercises', 'Cache') };
  }
  return {
    config: join(env.XDG_CONFIG_HOME || join(home, '.config'), 'exercises'),
    cache: join(env.XDG_CACHE_HOME || join(home, '.cache'), 'exercises'),
  };
}

export function configPath(env: Env): string {
  return join(userDirs(env).config, 'config.json');
}

export type StoredConfig = Record<string, unknown>;

/** Largest settings file read: a FIFO, a device or a huge file is refused unread. */
const SETTINGS_FILE_MAX_BYTES = 1024 * 1024;

/** The stored values; {} when there is no file yet. A corrupt file is a usage error naming it. */
export function readStoredConfig(env: Env): StoredConfig {
  const path = configPath(env);
  let text: string;
  try {
    // A FIFO planted here would otherwise hang every command at start.
    text = readRegularFileSync(path, { maxBytes: SETTINGS_FILE_MAX_BYTES }).toString('utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    if (err instanceof RefusedFileError) throw new UsageError(`Cannot read the config file: ${err.message}.`);
    throw new UsageError(`Cannot read the config file ${path}: ${(err as Error).message}.`);
  }
  if (text.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as StoredConfig;
  } catch {
    // not an object: the error below
  }
  throw new UsageError(`The config file ${path} is not valid JSON.`, {
    hint: 'Fix or delete it; `exercises config path` prints where it is.',
  });
}

/** --limit-rate as curl takes it: k, m, g 1024-based (`100k` is 102,400 bytes a second); 0 is no limit. */
const BYTE_UNITS: Readonly<Record<string, number>> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/** Bytes per second, a whole number up to `max` (0: no limit); `name` says where the value came from. */
export function parseByteRate(value: string, name: string, max: number): number {
  const match = /^(\d+(?:\.\d+)?|\.\d+)\s*([kmg]?)$/i.exec(value.trim());
  const bytes = match ? Math.round(Number(match[1]) * BYTE_UNITS[match[2]!.toLowerCase()]!) : Number.NaN;
  // A fraction of a byte a second would never let a byte through: refused with the rest.
  if (!Number.isFinite(bytes) || bytes > max || (bytes === 0 && Number(match![1]) !== 0)) {
    throw new UsageError(
      `${name} must be bytes per second, a number with an optional k, m or g suffix (1024-based, as curl's), such as 500k or 2m, not "${value}".`,
      {
        hint: '0 lifts the limit.',
      },
    );
  }
  return bytes;
}
