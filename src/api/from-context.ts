/**
 * Builds the API client for a command from its context, once per process: base URL, key
 * and language by precedence (flag > env > stored config > default), or the in-process
 * sandbox server with --sandbox. The transport is closed (and the sandbox stopped) on exit.
 */
import { type Context, verboseLog } from '../context.js';
import { AuthError } from '../errors.js';
import { type Settings, resolveSettings } from '../config/settings.js';
import { parseLangTag } from '../config/values.js';
import { Transport } from '../http/transport.js';
import { ApiClient } from './client.js';

export interface Connection {
  baseUrl: string;
  apiKey: string;
  /** Where the key came from, for `auth status` and --verbose. */
  keySource: Settings['apiKey']['source'];
  keyOrigin?: string;
}

const clients = new WeakMap<Context, Promise<ApiClient>>();
const settingsCache = new WeakMap<Context, Settings>();

export function settingsFromContext(ctx: Context): Settings {
  let settings = settingsCache.get(ctx);
  if (!settings) {
    settings = resolveSettings(ctx);
    settingsCache.set(ctx, settings);
  }
  return settings;
}

export function missingKeyError(): AuthError {
  return new AuthError(
    'No API key: set EXERCISES_API_KEY, store one with `exercises auth login`, or pass --api-key.',
    { hint: 'To try every command without a key or network, add --sandbox (a built-in sample catalogue).' },
  );
}

/** Base URL and key to use: the sandbox's, or the resolved settings (which must include a key). */
export async function connectionFromContext(ctx: Context): Promise<Connection> {
  const settings = settingsFromContext(ctx);
  if (ctx.globals.sandbox) {
    const { startSandbox } = await import('../server/sandbox.js');
    const sandbox = await startSandbox();
    ctx.onExit(() => sandbox.close());
    return { baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, keySource: 'sandbox' };
  }
  const apiKey = settings.apiKey.value;
  if (!apiKey) throw missingKeyError();
  return { baseUrl: settings.baseUrl.value!, apiKey, keySource: settings.apiKey.source, keyOrigin: settings.apiKey.origin };
}

/** An API client for a given base URL and key, with the context's timeouts, retries, log and signal. */
export function clientFor(ctx: Context, conn: { baseUrl: string; apiKey: string }): ApiClient {
  const settings = settingsFromContext(ctx);
  const log = verboseLog(ctx);
  const transport = new Transport({
    baseUrl: conn.baseUrl,
    apiKey: conn.apiKey,
    timeoutMs: settings.timeoutMs,
    retries: settings.retries,
    allowInsecure: ctx.globals.allowInsecure,
    signal: ctx.signal,
    ...(log ? { log } : {}),
  });
  ctx.onExit(() => transport.close());
  return new ApiClient(transport);
}

async function build(ctx: Context): Promise<ApiClient> {
  const settings = settingsFromContext(ctx);
  const conn = await connectionFromContext(ctx);
  const client = clientFor(ctx, conn);
  const log = verboseLog(ctx);
  if (log) {
    const from = conn.keySource === 'sandbox' ? 'the sandbox' : conn.keyOrigin ?? 'the stored config';
    log(`using ${client.transport.baseUrl.href} with the key from ${from}; timeout ${settings.timeoutMs} ms, ${settings.retries} retries`);
  }
  return client;
}

/**
 * The API client for this process. Missing key → AuthError (exit 3) telling the three ways
 * to give one and mentioning --sandbox.
 */
export function apiFromContext(ctx: Context): Promise<ApiClient> {
  let client = clients.get(ctx);
  if (!client) {
    client = build(ctx);
    clients.set(ctx, client);
  }
  return client;
}

/**
 * The language in force (flag > EXERCISES_LANG > config), or undefined for the service
 * default. Checked here, where it is about to be sent: a bad value is a usage error naming
 * the flag, variable or stored setting it came from.
 */
export async function resolvedLang(ctx: Context): Promise<string | undefined> {
  const { value, origin } = settingsFromContext(ctx).lang;
  return value === undefined ? undefined : parseLangTag(value, origin ?? 'The stored lang setting');
}
