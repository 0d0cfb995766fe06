/** undici is loaded only when a request really goes out: importing the transport (or making a Transport) loads none of it. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CatalogueServer, startServer } from '../helpers/server.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

let server: CatalogueServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

/** Runs an ES module snippet in a fresh node (asynchronously: the test server lives in this process) and returns the undici files it had loaded by the end. */
async function undiciFilesAfter(code: string): Promise<string[]> {
  const script = `${code}
const { createRequire } = await import('node:module');
console.log(JSON.stringify(Object.keys(createRequire(import.meta.url).cache).filter((f) => f.includes('undici'))));`;
  const r = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as string[];
}

describe('undici, loaded lazily', () => {
  it('is not loaded by importing the transport or making a Transport, and is by a request', async () => {
    const transport = join(root, 'dist', 'http', 'transport.js');
    expect(
      await undiciFilesAfter(`const { Transport } = await import(${JSON.stringify(transport)});
new Transport({ baseUrl: ${JSON.stringify(server.url)}, settings: { timeout: 1000, retries: 0 } });`),
    ).toEqual([]);
    const loaded = await undiciFilesAfter(`const { Transport } = await import(${JSON.stringify(transport)});
const t = new Transport({ baseUrl: ${JSON.stringify(server.url)}, apiKey: 'sandbox-premium', settings: { timeout: 5000, retries: 0 } });
await t.getJson('/exercise/Push_Up');
await t.close();`);
    expect(loaded.some((f) => f.includes(join('node_modules', 'undici')))).toBe(true);
  });
});
