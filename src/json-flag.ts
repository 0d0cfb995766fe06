/**
 * `--json [fields]` takes an optional value, and commander gives an optional value the next
 * argument whenever it does not start with `-`: `exercises --json show Push_Up` would read
 * `show` as a field list. So, before commander parses, each `--json` is made explicit: the
 * next argument is its field list only when it looks like one (it has a comma, it is a field
 * name of some output, or it is a slip of one: `--json nme`, as gh users type it); otherwise
 * `--json` stands alone. Either way it becomes one `--json=<value>` argument, and an empty
 * value means a bare `--json` (see globalOptions). A slip taken as a field list is then the
 * usage error "Unknown field … Did you mean name?" (output/fields.ts), not an id never found.
 */
import { editDistance } from './catalogue/suggest.js';
import { RECORD_FIELDS, SUMMARY_FIELDS } from './output/fields.js';

const FIELD_NAMES: readonly string[] = [...new Set([...SUMMARY_FIELDS, ...RECORD_FIELDS])];

/**
 * Edits a word may be from a field name and still be read as a slip of it: two, but never
 * half the field or more, so that `ids` (one edit from `id`) or `level`-sized words that are
 * commands stay what they are; a field of 2 letters takes no slip at all.
 */
function slipAllowance(field: string): number {
  return Math.min(2, Math.floor((field.length - 1) / 2));
}

/** True when `word` is a field name in another case or within slipAllowance() edits of one. */
function nearField(word: string): boolean {
  const lower = word.toLowerCase();
  return FIELD_NAMES.some((f) => editDistance(lower, f.toLowerCase()) <= slipAllowance(f));
}

function looksLikeFields(arg: string): boolean {
  if (arg.startsWith('-')) return false;
  return arg.includes(',') || FIELD_NAMES.includes(arg) || nearField(arg);
}

/** The command line with every `--json` written as `--json=<fields or nothing>`; `--` ends the rewriting. */
export function explicitJsonFlag(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      out.push(...args.slice(i));
      break;
    }
    if (arg !== '--json') {
      out.push(arg);
      continue;
    }
    const next = args[i + 1];
    if (next !== undefined && looksLikeFields(next)) {
      out.push(`--json=${next}`);
      i++;
    } else {
      out.push('--json=');
    }
  }
  return out;
}

/** commander's value for `--json=<value>` as the rest of the CLI reads it: true for a bare flag. */
export function jsonFlagValue(value: unknown): boolean | string | undefined {
  if (value === '' || value === true) return true;
  return typeof value === 'string' ? value : undefined;
}
