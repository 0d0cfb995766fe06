/**
 * The global options every command takes, as commander parsed them, and their values when no
 * flag is given. Below the Context (src/context.ts carries them as ctx.globals) so the
 * settings resolution (settings.ts) reads them without reaching up.
 */

export const OUTPUT_FORMATS = ['table', 'json', 'jsonl', 'csv', 'tsv'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** The global options of DESIGN.md "CLI surface", as commander parsed them. */
export interface GlobalOptions {
  baseUrl?: string;
  apiKey?: string;
  lang?: string;
  format?: OutputFormat;
  /** `--json` alone is true; `--json id,name` keeps the field list. */
  json?: boolean | string;
  /** commander's `--no-color` sets this to false. */
  color: boolean;
  timeout?: number;
  retries?: number;
  verbose: boolean;
  quiet: boolean;
  sandbox: boolean;
  allowInsecure: boolean;
  /** --catalogue <dir>: every answer from that catalogue directory, in-process. */
  catalogue?: string;
  /** --offline: answers only from the response cache. */
  offline: boolean;
  /** --refresh: fetch anew and update the response cache. */
  refresh: boolean;
  /** commander's `--no-cache` sets this to false: the response cache is neither read nor written. */
  cache: boolean;
  /** --budget <n>: requests allowed this month (over the stored setting). */
  budget?: number;
  /** commander's `--no-pager` sets this to false. */
  pager: boolean;
}

/** No global flag given. */
export const DEFAULT_GLOBALS: Readonly<GlobalOptions> = Object.freeze({
  color: true,
  verbose: false,
  quiet: false,
  sandbox: false,
  allowInsecure: false,
  offline: false,
  refresh: false,
  cache: true,
  pager: true,
});
