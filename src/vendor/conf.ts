/**
 * conf, the writer of the stored config file (src/config/store.ts openConfigWriter). Only
 * `auth login|logout` and `config set|unset` write; every other command reads the file with
 * node:fs. Its bundled vendor file is ~300 KB (conf brings ajv for its schema support and
 * atomically/env-paths), the heaviest of all to load.
 */
export function loadConf(): Promise<typeof import('conf')> {
  return import('conf');
}
