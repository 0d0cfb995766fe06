/** The sandbox: the shipped sample catalogue, answered in-process with its premium key (`--sandbox`): no key, no network. */
import { fileURLToPath } from 'node:url';
import { SANDBOX_PREMIUM_KEY } from '../defaults.js';

export const SANDBOX_API_KEY = SANDBOX_PREMIUM_KEY;

/** The sample/ folder at the package root. */
export function sampleCatalogueDir(): string {
  return fileURLToPath(new URL('../../sample', import.meta.url));
}
