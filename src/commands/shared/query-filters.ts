/**
 * The filter flags of /exercise/query (spec §4.1) under docs/design.md's names, shared by
 * `query` and `download`. Enum flags take friendly spellings; the array filters take
 * repeated flags and comma lists; the two muscle filters take one value each.
 */
import type { Command } from 'commander';
import type { QueryFilterParams } from '../../api/client.js';
import { ENUM_FILTERS } from '../../catalogue/enums.js';
import { parseEnumList } from '../../catalogue/enum-parse.js';
import { enumHelpList } from '../../catalogue/enum-words.js';
import { UsageError } from '../../errors.js';
import { parseLangTag } from '../../config/parsers.js';
import { collect } from './flags.js';

export type { QueryFilterParams };

function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/** The commander option keys that feed each enum filter (--muscle is --primary-muscle's short name). */
const FLAG_KEYS: Record<string, string[]> = { primaryMuscle: ['muscle', 'primaryMuscle'] };

export function addQueryFilterOptions(cmd: Command): Command {
  cmd
    .option('--name <text>', 'name contains this text (any case)')
    .option('--alias <text>', 'an alias contains this text (any case)')
    .option('--muscle <muscle>', `primary muscle: ${enumHelpList('Muscle')}`, collect);
  // The muscle words are said once, for --muscle.
  const muscle = { primaryMuscle: 'the same as --muscle', secondaryMuscle: 'secondary muscle, in the words --muscle takes' };
  for (const filter of ENUM_FILTERS) {
    const flag = `--${kebab(filter.param)}`;
    const description = filter.array ? `${filter.enum.toLowerCase()}: one or more of ${enumHelpList(filter.enum)}` : muscle[filter.param];
    cmd.option(`${flag} <${filter.array ? 'values' : 'muscle'}>`, description, collect);
  }
  return cmd.option('--searchlang <code>', 'language of --name, --alias (default: --lang)');
}

/** Parsed, validated filters; unknown enum values and a second muscle are usage errors. */
export function queryParamsFromOptions(opts: Record<string, unknown>): QueryFilterParams {
  const params: Record<string, unknown> = {};
  const text = (key: 'name' | 'alias'): void => {
    const v = opts[key];
    if (typeof v === 'string') {
      if (v.trim() === '') throw new UsageError(`--${key} needs some text to search for.`);
      params[key] = v;
    }
  };
  text('name');
  text('alias');
  for (const filter of ENUM_FILTERS) {
    const keys = FLAG_KEYS[filter.param] ?? [filter.param];
    const raw = keys.flatMap((k) => (Array.isArray(opts[k]) ? (opts[k] as string[]) : typeof opts[k] === 'string' ? [opts[k]] : []));
    if (raw.length === 0) continue;
    const flag = `--${kebab(filter.param)}`;
    const values = parseEnumList(filter.enum, raw, keys.length > 1 ? '--muscle' : flag);
    if (!filter.array && values.length > 1) {
      throw new UsageError(
        `${keys.length > 1 ? '--muscle' : flag} takes one value: the service filters by a single ${filter.param === 'primaryMuscle' ? 'primary' : 'secondary'} muscle (got ${values.join(', ')}).`,
        {
          hint: 'Run one query per muscle, or combine --muscle with --secondary-muscle.',
        },
      );
    }
    if (values.length > 0) params[filter.param] = filter.array ? values : values[0];
  }
  if (typeof opts.searchlang === 'string') params.searchlang = parseLangTag(opts.searchlang, '--searchlang');
  return params;
}
