/**
 * Every environment variable the CLI reads, in one table: `exercises help environment` prints
 * it and the README's "Environment variables" table is checked against it.
 */
export interface EnvironmentVariable {
  name: string;
  meaning: string;
}

export const ENVIRONMENT_VARIABLES: readonly EnvironmentVariable[] = [
  { name: 'EXERCISES_API_KEY', meaning: 'API key (over the stored one; --api-key over it)' },
  { name: 'EXERCISES_BASE_URL', meaning: 'service base URL (over the stored one; --base-url over it)' },
  { name: 'EXERCISES_LANG', meaning: 'translation language, e.g. de-DE (over the stored one; --lang over it)' },
  { name: 'EXERCISES_CATALOGUE', meaning: 'answer every command from this catalogue directory (--catalogue over it)' },
  { name: 'EXERCISES_BUDGET', meaning: 'requests allowed this month (--budget over it)' },
  { name: 'EXERCISES_DEADLINE', meaning: 'seconds a whole command may wait for the service, retries included; 0: none (--deadline over it)' },
  { name: 'EXERCISES_UPSTREAM_KEY', meaning: 'serve --upstream: the key sent to the upstream service (over --upstream-key-file and the stored key)' },
  { name: 'EXERCISES_PAGER', meaning: 'pager for long tables on a terminal (over PAGER; default less -FRX; cat or empty: none)' },
  { name: 'PAGER', meaning: 'pager, when EXERCISES_PAGER is unset' },
  { name: 'NO_COLOR', meaning: 'no colour when set to anything but the empty string' },
  { name: 'XDG_CONFIG_HOME', meaning: 'where the config file lives ($XDG_CONFIG_HOME/exercises/config.json)' },
  { name: 'XDG_CACHE_HOME', meaning: 'where the caches live ($XDG_CACHE_HOME/exercises/)' },
];
