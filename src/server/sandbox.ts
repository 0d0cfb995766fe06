/**
 * The sandbox: the shipped sample catalogue served in-process on 127.0.0.1 with an ephemeral
 * port, so every command can be tried with no key and no network (`--sandbox`).
 */
import { fileURLToPath } from 'node:url';
import { SANDBOX_PREMIUM_KEY } from '../defaults.js';
import { createCatalogueServer } from './catalogue-server.js';

export const SANDBOX_API_KEY = SANDBOX_PREMIUM_KEY;

/** The sample/ folder at the package root: two levels up from both src/server and dist/server. */
export function sampleCatalogueDir(): string {
  return fileURLToPath(new URL('../../sample', import.meta.url));
}

export async function startSandbox(): Promise<{ baseUrl: string; apiKey: string; close(): Promise<void> }> {
  const server = await createCatalogueServer({ dir: sampleCatalogueDir(), host: '127.0.0.1', port: 0 });
  return { baseUrl: server.url, apiKey: SANDBOX_API_KEY, close: () => server.close() };
}
