/**
 * Decides where this process's requests go, once (main() puts it on the Context as
 * `connection()`): with --sandbox, the shipped sample catalogue served in-process on
 * 127.0.0.1 with its premium key, stopped on exit; otherwise the base URL and key resolved
 * from flags, environment and stored config. The API layer is handed the result.
 */
import type { Connection, Context } from '../../context.js';

export async function decideConnection(ctx: Context): Promise<Connection> {
  const { settingsFromContext } = await import('../../api/from-context.js');
  const settings = settingsFromContext(ctx); // a broken config file is reported even with --sandbox
  if (ctx.globals.sandbox) {
    const { startSandbox } = await import('../../server/sandbox.js');
    const sandbox = await startSandbox();
    ctx.onExit(() => sandbox.close());
    return { baseUrl: sandbox.baseUrl, baseUrlSource: 'sandbox', apiKey: sandbox.apiKey, keySource: 'sandbox' };
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
