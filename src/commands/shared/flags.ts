/** Flag values shared by commands: commander adapters for our parsers, the global flags checked together, `--json`'s rewrite, `--images`/`--size`. */
import { InvalidArgumentError } from 'commander';
import { editDistance } from '../../catalogue/suggest.js';
import { type GlobalOptions, flagName } from '../../config/settings.js';
import { parseWholeNumber } from '../../config/parsers.js';
import { UsageError } from '../../errors.js';
import type { CellBox } from '../../output/images/fit.js';
import { IMAGE_PROTOCOLS, type ImageProtocol } from '../../output/images/protocol.js';
import { RECORD_FIELDS, SUMMARY_FIELDS } from '../../output/fields.js';
import { escapeUnsafe } from '../../util/text.js';

/** A commander parser from one of ours: commander reports the UsageError as a flag error naming flag and value. */
export function settingArg<T>(flag: string, parse: (text: string, name: string) => T): (value: string) => T {
  return (value: string) => {
    try {
      return parse(value, flag);
    } catch (err) {
      throw err instanceof UsageError ? new InvalidArgumentError(err.message) : err;
    }
  };
}

/** commander parser for a whole number within bounds. */
export function intArg(flag: string, min: number, max = Number.MAX_SAFE_INTEGER): (value: string) => number {
  return settingArg(flag, (text, name) => parseWholeNumber(text, name, min, max));
}

/** commander collector: every occurrence of a repeatable flag, in order. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/* The global flags together, once parsed: two flags asking for different things are a usage error, never a silent choice. */

export function assertGlobalFlags(globals: Pick<GlobalOptions, 'json' | 'format' | 'sandbox' | 'baseUrl' | 'catalogue'>): void {
  // `--json` goes with json itself and jsonl (the same objects, one per line), no other format.
  if (globals.json !== undefined && globals.json !== false && globals.format !== undefined && globals.format !== 'json' && globals.format !== 'jsonl') {
    throw new UsageError(`--json and --format ${globals.format} ask for different output formats; give one of them.`, {
      hint: '--json [fields] writes JSON (with --format jsonl, one object per line); --format alone picks any format.',
    });
  }
  if (!globals.sandbox) return;
  // --sandbox is its own server: another place to send requests contradicts it.
  const other = globals.baseUrl !== undefined ? flagName('baseUrl') : globals.catalogue !== undefined ? flagName('catalogue') : undefined;
  if (other !== undefined) {
    throw new UsageError(`${flagName('sandbox')} and ${other} both say where answers come from; give one of them.`, {
      hint: '--sandbox answers from the built-in sample, in-process; --base-url names a service; --catalogue reads a catalogue directory.',
    });
  }
}

/*
 * `--json [fields]` takes an optional value, and commander would take the next argument for it
 * (`exercises --json show Push_Up` would read `show` as fields). So, before commander parses, each
 * `--json` becomes one `--json=<value>` argument, taking the next one only when it looks like a field
 * list (a comma, a field name, or a slip of one: `--json nme`); an empty value means a bare `--json`.
 */

const FIELD_NAMES: readonly string[] = [...new Set([...SUMMARY_FIELDS, ...RECORD_FIELDS])];

/**
 * Whether the word after `--json` is its field list: it has a comma, or is a field name in any case or a
 * slip of one (within two edits, never half the field, so `ids` or a command stays what it is).
 */
function looksLikeFields(arg: string): boolean {
  if (arg.startsWith('-')) return false;
  const lower = arg.toLowerCase();
  const slip = (f: string): boolean => editDistance(lower, f.toLowerCase()) <= Math.min(2, Math.floor((f.length - 1) / 2));
  return arg.includes(',') || FIELD_NAMES.includes(arg) || FIELD_NAMES.some(slip);
}

/** The command line with every `--json` as `--json=<fields or nothing>`; `--` ends the rewriting. */
export function explicitJsonFlag(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') return [...out, ...args.slice(i)];
    if (arg !== '--json') out.push(arg);
    else out.push(args[i + 1] !== undefined && looksLikeFields(args[i + 1]!) ? `--json=${args[++i]}` : '--json=');
  }
  return out;
}

/** commander's value for `--json=<value>`: true for a bare flag. */
export function jsonFlagValue(value: unknown): boolean | string | undefined {
  if (value === '' || value === true) return true;
  return typeof value === 'string' ? value : undefined;
}

/** `--images Plank`: commander reads the id as the flag's value; a value that is no protocol, not written with `=`, is given back as a positional. */
export function splitImagesValue(value: unknown, flag: string, argv: readonly string[]): { flag: unknown; positional?: string } {
  if (typeof value !== 'string' || (IMAGE_PROTOCOLS as readonly string[]).includes(value) || argv.includes(`${flag}=${value}`)) return { flag: value };
  return { flag: true, positional: value };
}

/** The largest `--size` side, in cells: past any terminal, short of an accident. */
const SIZE_MAX_CELLS = 1000;

/** `--images`/`--view` (alone, or `=kitty|iterm|blocks`) with `--size WxH`: the protocol forced and the cells each picture may take; undefined when not drawing. */
export function drawFlags(value: unknown, size: unknown, flag: string): { protocol?: ImageProtocol; size?: CellBox } | undefined {
  const shown = (v: unknown): string => escapeUnsafe(typeof v === 'string' ? v : JSON.stringify(v));
  if (value === undefined || value === false) {
    if (size !== undefined) throw new UsageError(`--size goes with ${flag}: it is the size pictures are drawn at.`);
    return undefined;
  }
  if (value !== true && !(typeof value === 'string' && (IMAGE_PROTOCOLS as readonly string[]).includes(value))) {
    throw new UsageError(
      `${flag} takes ${IMAGE_PROTOCOLS.join(', ')} or nothing (the terminal's own way is found from its environment), not "${shown(value)}".`,
    );
  }
  const protocol = value === true ? {} : { protocol: value as ImageProtocol };
  if (size === undefined) return protocol;
  const match = typeof size === 'string' ? /^(\d{1,4})[x×](\d{1,4})$/i.exec(size.trim()) : null;
  const [columns, rows] = match ? [Number(match[1]), Number(match[2])] : [0, 0];
  if (columns < 1 || rows < 1 || columns > SIZE_MAX_CELLS || rows > SIZE_MAX_CELLS) {
    throw new UsageError(`--size takes columns x lines, each from 1 to ${SIZE_MAX_CELLS} (such as 40x12), not "${shown(size)}".`);
  }
  return { ...protocol, size: { columns, rows } };
}
