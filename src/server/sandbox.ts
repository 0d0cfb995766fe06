/**
 * The sandbox: the shipped sample catalogue, answered in-process with its premium key
 * (src/connection.ts, in-process.ts), so every command can be tried with no key and no
 * network (`--sandbox`).
 */
import { fileURLToPath } from 'node:url';
import { SANDBOX_PREMIUM_KEY } from '../defaults.js';

export const SANDBOX_API_KEY = SANDBOX_PREMIUM_KEY;

/** The sample/ folder at the package root: two levels up from both src/server and dist/server. */
export function sampleCatalogueDir(): string {
  return fileURLToPath(new URL('../../sample', import.meta.url));
}
