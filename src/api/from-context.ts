/**
 * Builds the API client for a command from its context, once per process: the connection
 * the context decided (base URL and key, or the --sandbox server's; see
 * src/commands/shared/connection.ts) with the timeouts and retries resolved by precedence
 * (flag > env > stored config > default). The transport is closed on exit.
 */
import type { Connection, Context } from '../context.js';
import { verboseLog } from '../context.js';
import { AuthError } from '../errors.js';
import { type Settings, resolveSettings } from '../config/settings.js';
import { parseLangTag } from '../config/values.js';
import { Transport } from '../http/transport.js';
import { ApiClient } from './client.js';

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

/** The context's connection, which must include a key (else AuthError naming the ways to give one). */
export async function connectionFromContext(ctx: Context): Promise<Connection & { apiKey: string }> {
  const conn = await ctx.connection();
  const apiKey = conn.apiKey;
  if (!apiKey) throw missingKeyError();
  return { ...conn, apiKey };
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
