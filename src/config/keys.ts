/**
 * The config keys: the rows of the settings table (settings-table.ts) that `config set`
 * stores. `config get|set|unset|list`, completion and the settings resolution read them here.
 */
import { closestWords, orList } from '../catalogue/suggest.js';
import { UsageError } from '../errors.js';
import { type Setting, SETTINGS } from './settings-table.js';

/** A stored setting (its `name` is the config key). */
export type ConfigKeySpec = Setting & { stored: true };

export const CONFIG_KEYS: readonly ConfigKeySpec[] = SETTINGS.filter((s): s is ConfigKeySpec => s.stored === true);

/** The key's setting; an unknown key is a usage error suggesting the closest and listing them all. */
export function configKeySpec(key: string): ConfigKeySpec {
  const spec = CONFIG_KEYS.find((k) => k.key === key);
  if (!spec) {
    const known = CONFIG_KEYS.map((k) => k.key);
    const near = closestWords(key, known);
    throw new UsageError(`Unknown config key "${key}".${near.length > 0 ? ` Did you mean ${orList(near)}?` : ''}`, {
      hint: `Known keys: ${known.join(', ')}.`,
      details: { key, known },
    });
  }
  return spec;
}

/** How a key is shown (`auth status`, `config list`): src/util/redact.ts, with the rest of the key's redaction. */
export { maskSecret } from '../util/redact.js';
