/**
 * `--json [fields]` takes an optional value, and commander gives an optional value the next
 * argument whenever it does not start with `-`: `exercises --json show Push_Up` would read
 * `show` as a field list. So, before commander parses, each `--json` is made explicit: the
 * next argument is its field list only when it looks like one (it has a comma, or it is a
 * field name of some output); otherwise `--json` stands alone. Either way it becomes one
 * `--json=<value>` argument, and an empty value means a bare `--json` (see globalOptions).
 */
import { RECORD_FIELDS, SUMMARY_FIELDS } from './output/fields.js';

const FIELD_NAMES: ReadonlySet<string> = new Set([...SUMMARY_FIELDS, ...RECORD_FIELDS]);

function looksLikeFields(arg: string): boolean {
  return !arg.startsWith('-') && (arg.includes(',') || FIELD_NAMES.has(arg));
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
