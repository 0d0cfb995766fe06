/**
 * Where this run's requests go, decided once by the factory: with --sandbox, the shipped
 * sample catalogue served in-process on 127.0.0.1 with its premium key (stopped when the run
 * ends); otherwise the base URL and key resolved from flags, environment and stored config.
 */
import type { Connection } from './context.js';
import type { Settings } from './config/settings.js';
import { AuthError } from './errors.js';

export interface ConnectionInputs {
  settings: Settings;
  sandbox: boolean;
  onExit(fn: () => void | Promise<void>): void;
}

export async function decideConnection({ settings, sandbox, onExit }: ConnectionInputs): Promise<Connection> {
  if (sandbox) {
    const { startSandbox } = await import('./server/sandbox.js');
    const server = await startSandbox();
    onExit(() => server.close());
    return { baseUrl: server.baseUrl, baseUrlSource: 'sandbox', apiKey: server.apiKey, keySource: 'sandbox' };
  }
  const { baseUrl, apiKey } = settings;
  return {
    baseUrl: baseUrl.value!,
    baseUrlSource: baseUrl.source,
    ...(baseUrl.origin ? { baseUrlOrigin: baseUrl.origin } : {}),
    ...(apiKey.value ? { apiKey: apiKey.value } : {}),
    keySource: apiKey.source,
    ...(apiKey.origin ? { keyOrigin: apiKey.origin } : {}),
  };
}

/** The connection, which must include a key: else AuthError naming the three ways to give one and --sandbox. */
export function requireKey(conn: Connection): Connection & { apiKey: string } {
  const apiKey = conn.apiKey;
  if (!apiKey) {
    throw new AuthError('No API key: set EXERCISES_API_KEY, store one with `exercises auth login`, or pass --api-key.', {
      hint: 'To try every command without a key or network, add --sandbox (a built-in sample catalogue).',
    });
  }
  return { ...conn, apiKey };
}
