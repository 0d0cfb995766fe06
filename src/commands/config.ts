/** `exercises config get|set|unset|list|path`: the stored settings (keys in src/config/settings-table.ts). */
import type { Command } from 'commander';
import { type Context, DEFAULT_GLOBALS, outputFormat } from '../context.js';
import { SERVICE_LANG, DEFAULT_SERVE_HOST, DEFAULT_SERVE_PORT } from '../defaults.js';
import { UsageError } from '../errors.js';
import type { RegisterCommand } from './shared/register.js';
import { addExamples, addNotes, helpWhenBare } from './shared/help.js';
import { catalogueInForce, CONFIG_KEYS, configKeySpec, displayValue, fileValue, setting, settingHelp, resolveSetting } from '../config/settings.js';
import type { ConfigKeySpec, Resolved, SettingSources } from '../config/settings.js';
import { maskSecret } from '../util/text.js';
import { type SettingValue } from '../config/settings-table.js';
import { assertAllowedUrl, isLoopbackHost } from '../util/url-policy.js';
import { delimitedLine } from '../output/fields.js';
import { alignedRows } from '../output/aligned.js';
import { configPath, readStoredConfig } from '../config/parsers.js';
import { openConfigWriter } from '../config/store.js';
import { readCatalogue } from '../catalogue/load.js';
import { orList } from '../catalogue/suggest.js';

/** Which subcommand, with a known key and, for `set`, the value already checked. */
export type ConfigOptions =
  | { action: 'get'; key: string }
  | { action: 'set'; key: string; value: SettingValue }
  | { action: 'unset'; key: string }
  | { action: 'list' }
  | { action: 'path' };

/** `config set`: a settable key, and a value that passes its setting's parser. */
export async function setOptions(key: string, value: string): Promise<ConfigOptions> {
  const spec = configKeySpec(key);
  if (spec.setWith) throw new UsageError(`${spec.name} is set with \`${spec.setWith}\`, so it never lands in shell history.`);
  return { action: 'set', key: spec.name, value: spec.parser!(value, spec.name, spec) };
}

/**
 * One key's value in force and its source, as a person reads it (`text`) and as `--json` shows it
 * (the file's unit). A value its parser refuses is shown as given, to be fixed.
 */
function inForce(spec: ConfigKeySpec, sources: SettingSources): Resolved<SettingValue> & { text: string; json: unknown } {
  let resolved: Resolved<SettingValue>;
  let good = true;
  try {
    resolved = resolveSetting(spec, sources);
  } catch {
    resolved = resolveSetting(spec, sources, false);
    good = false;
  }
  const { value } = resolved;
  const text = value === undefined ? '' : good ? displayValue(spec, value) : typeof value === 'string' ? value : JSON.stringify(value);
  const json = value === undefined ? null : spec.secret ? maskSecret(String(value)) : good ? fileValue(spec, value) : value;
  return { ...resolved, text: spec.secret ? maskSecret(text) : text, json };
}

/** `config get`: the stored value, else the default in force (nothing for a key without one). */
async function get(key: string, ctx: Context): Promise<void> {
  const spec = configKeySpec(key);
  const { value, source, text } = inForce(spec, { globals: DEFAULT_GLOBALS, env: {}, stored: readStoredConfig(ctx.env) });
  if (value !== undefined) ctx.io.stdout.write(`${text}\n`);
  // stdout keeps only the value, for `$(exercises config get …)`.
  if (ctx.io.stderrIsTTY && !ctx.globals.quiet) {
    const from = source === 'config' ? 'stored' : value !== undefined ? 'the default' : 'not set, and no default';
    const over = spec.variable && ctx.env[spec.variable] ? `; ${spec.variable} is set and takes precedence` : '';
    ctx.io.stderr.write(`(${spec.name}: ${from}${over})\n`);
  }
}

/** --sandbox never touches the real settings: a sandbox key must never reach the real service. */
export function refuseInSandbox(ctx: Pick<Context, 'globals'>, what: string): void {
  if (!ctx.globals.sandbox) return;
  throw new UsageError(`--sandbox never changes your stored settings, so ${what} does nothing under it.`, {
    hint: 'The sandbox needs no key or settings; run the command without --sandbox to change the real ones.',
  });
}

async function set(key: string, value: SettingValue, ctx: Context): Promise<void> {
  refuseInSandbox(ctx, '`config set`');
  const spec = configKeySpec(key);
  if (spec.name === 'base-url') assertBaseUrlAllowed(new URL(String(value)), ctx);
  if (spec.name === 'lang') assertCatalogueHas(String(value), ctx);
  (await openConfigWriter(ctx.env)).set(spec.name, fileValue(spec, value));
  if (!ctx.globals.quiet && spec.variable && ctx.env[spec.variable]) {
    ctx.io.stderr.write(`Note: ${spec.variable} is set and takes precedence over the stored ${spec.name}.\n`);
  }
}

function sourcesOf(ctx: Context): SettingSources {
  return { globals: ctx.globals, env: ctx.env, stored: readStoredConfig(ctx.env) };
}

/** Plain http only to this machine unless allow-insecure: allowed by the flag alone, say how to keep it. */
function assertBaseUrlAllowed(url: URL, ctx: Context): void {
  const allowed = resolveSetting(setting('allow-insecure'), sourcesOf(ctx));
  assertAllowedUrl(url, allowed.value === true);
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname) && allowed.source === 'flag' && !ctx.globals.quiet) {
    ctx.io.stderr.write(
      `Note: every command refuses plain http:// to ${url.host} unless allow-insecure is set too: \`exercises config set allow-insecure true\` (or EXERCISES_ALLOW_INSECURE=1).\n`,
    );
  }
}

/**
 * With a catalogue directory in force, a language must be one of its records' own or their
 * translations'. The service publishes no list, so against it only the tag is checked.
 */
function assertCatalogueHas(lang: string, ctx: Context): void {
  const dir = catalogueInForce(sourcesOf(ctx))?.value;
  if (dir === undefined) return;
  const languages = [SERVICE_LANG, ...readCatalogue(dir).languages.filter((l) => l !== SERVICE_LANG)];
  if (languages.some((l) => l.toLowerCase() === lang.toLowerCase())) return;
  throw new UsageError(`lang ${lang} is not a language of the catalogue at ${dir}: it has ${orList(languages)}.`, {
    hint: '`exercises mirror <dir> --langs <tags>` fetches more languages into a catalogue.',
  });
}

async function unset(key: string, ctx: Context): Promise<void> {
  refuseInSandbox(ctx, '`config unset`');
  (await openConfigWriter(ctx.env)).delete(configKeySpec(key).name);
}

async function list(ctx: Context): Promise<void> {
  const sources = sourcesOf(ctx);
  const rows = CONFIG_KEYS.map((spec) => {
    const { text, source, origin, json } = inForce(spec, sources);
    return { key: spec.name, value: text, source, origin, json: { value: json, source, ...(origin ? { origin } : {}) } };
  });
  const format = outputFormat(ctx);
  if (format === 'json') ctx.io.stdout.write(`${JSON.stringify(Object.fromEntries(rows.map((r) => [r.key, r.json])))}\n`);
  else if (format === 'jsonl') for (const r of rows) ctx.io.stdout.write(`${JSON.stringify({ key: r.key, ...r.json })}\n`);
  else if (format === 'table')
    ctx.io.stdout.write(alignedRows(rows.map((r) => [r.key, r.value === '' ? '-' : r.value, r.origin ? `${r.source} (${r.origin})` : r.source])));
  else {
    if (format === 'csv') ctx.io.stdout.write(delimitedLine(format, ['key', 'value', 'source']));
    for (const r of rows) ctx.io.stdout.write(delimitedLine(format, [r.key, r.value, r.source]));
  }
}

export async function run(options: ConfigOptions, ctx: Context): Promise<void> {
  if (options.action === 'get') return get(options.key, ctx);
  if (options.action === 'set') return set(options.key, options.value, ctx);
  if (options.action === 'unset') return unset(options.key, ctx);
  if (options.action === 'list') return list(ctx);
  ctx.io.stdout.write(`${configPath(ctx.env)}\n`);
}

/** A key in `config --help`, as the flags' help lines have them. */
function keyItem(spec: ConfigKeySpec): { term: string; description: string } {
  return { term: spec.name, description: settingHelp(spec, spec.setWith ? `set with \`${spec.setWith}\`` : undefined) };
}

export const register: RegisterCommand<ConfigOptions> = (program: Command, context, runF = run) => {
  const config = program.command('config').description('read and change stored settings (every key is listed below)');
  const keyHelp = `one of: ${CONFIG_KEYS.map((k) => (k.setWith ? `${k.name} (read only)` : k.name)).join(', ')}`;
  addNotes(config, 'KEYS', CONFIG_KEYS.map(keyItem));
  const act = async (build: () => ConfigOptions | Promise<ConfigOptions>): Promise<void> => {
    const ctx = context();
    await runF(await build(), ctx);
  };

  const getCmd = config.command('get').description('print a stored setting, or its default when none is stored').argument('<key>', keyHelp);
  addExamples(getCmd, ['exercises config get base-url'], ['lang=$(exercises config get lang)']);
  getCmd.action((key: string) => act(() => ({ action: 'get', key: configKeySpec(key).name })));

  const setCmd = config.command('set').description('store a setting (checked first)').argument('<key>', keyHelp).argument('<value>', 'the value');
  addExamples(
    setCmd,
    ['exercises config set lang de-DE', `exercises config set base-url http://${DEFAULT_SERVE_HOST}:${DEFAULT_SERVE_PORT}`, 'exercises config set retries 5'],
    ['exercises config set timeout 10s --quiet', 'exercises config set cache-ttl 90m'],
  );
  setCmd.action((key: string, value: string) => act(() => setOptions(key, value)));

  const unsetCmd = config.command('unset').description('remove a stored setting').argument('<key>', keyHelp);
  addExamples(unsetCmd, ['exercises config unset base-url'], ['exercises config unset lang --quiet']);
  unsetCmd.action((key: string) => act(() => ({ action: 'unset', key: configKeySpec(key).name })));

  const listCmd = config
    .command('list')
    .description('list every setting: the value in force (the key masked) and where it comes from (flag, env, config, default)');
  addExamples(listCmd, ['exercises config list'], ['exercises config list --json | jq -r .lang.value', 'exercises config list --format tsv']);
  listCmd.action(() => act(() => ({ action: 'list' })));

  const pathCmd = config.command('path').description('print where the settings file is');
  addExamples(pathCmd, ['exercises config path'], ['cat "$(exercises config path)"']);
  pathCmd.action(() => act(() => ({ action: 'path' })));

  helpWhenBare(config);
  addExamples(config, ['exercises config list', 'exercises config set lang de-DE'], ['exercises config list --json']);
};
