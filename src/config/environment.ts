/**
 * Every environment variable the CLI reads, in one list: the settings' own (settings-table.ts),
 * then the ones that stand for no setting. `exercises help environment`, the man pages and
 * docs/commands.md print it; the README's table is checked against it.
 */
import { SETTINGS } from './settings-table.js';

export interface EnvironmentVariable {
  name: string;
  meaning: string;
}

/** A setting's variable: its description and what it sits between (the stored value, the flag). */
function settingVariables(): EnvironmentVariable[] {
  return SETTINGS.flatMap((s) => {
    if (!s.env) return [];
    const flag = s.flags === undefined ? undefined : /--[a-z-]+/.exec(s.flags)![0];
    const between = [s.stored ? 'over the stored value' : undefined, flag ? `${flag} over it` : undefined].filter((p) => p !== undefined);
    return [{ name: s.env, meaning: between.length === 0 ? s.description : `${s.description} (${between.join('; ')})` }];
  });
}

export const ENVIRONMENT_VARIABLES: readonly EnvironmentVariable[] = [
  ...settingVariables(),
  { name: 'EXERCISES_UPSTREAM_KEY', meaning: 'serve --upstream: the key sent to the upstream service (over --upstream-key-file and the stored key)' },
  { name: 'HTTPS_PROXY', meaning: 'forward proxy for https:// requests, as curl reads it (https_proxy over it; credentials in its URL are masked in -v)' },
  { name: 'HTTP_PROXY', meaning: 'forward proxy for http:// requests (http_proxy over it)' },
  {
    name: 'NO_PROXY',
    meaning: 'hosts reached directly, comma-separated: a name covers the names under it, host:port, an IP, or * for all (no_proxy over it)',
  },
  { name: 'EXERCISES_PAGER', meaning: 'pager for long tables on a terminal (over PAGER; default less -FRX; cat or empty: none)' },
  { name: 'PAGER', meaning: 'pager, when EXERCISES_PAGER is unset' },
  { name: 'NO_COLOR', meaning: 'no colour when set to anything but the empty string' },
  { name: 'XDG_CONFIG_HOME', meaning: 'where the config file lives ($XDG_CONFIG_HOME/exercises/config.json)' },
  { name: 'XDG_CACHE_HOME', meaning: 'where the caches live ($XDG_CACHE_HOME/exercises/)' },
];
