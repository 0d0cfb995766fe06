/**
 * The limit on a response's header size in the bundled undici, which is node:http's: an answer
 * whose headers fit in Node's 16 KiB is read, a larger one refused, and `--max-http-header-size`
 * raises the limit as it does for node:http itself. Run through the built CLI, which uses the
 * bundle.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExitCode } from '../../src/errors.js';
import { serverEnv } from '../helpers/fixtures.js';
import { runCli } from '../helpers/run-cli.js';
import { type CatalogueServer, startServer } from '../helpers/server.js';

let server: CatalogueServer;
/** Bytes of padding header the server adds to its next answers. */
let padding = 0;
beforeAll(async () => {
  server = await startServer({
    intercept: (_req, res) => {
      if (padding > 0) res.setHeader('X-Padding', 'x'.repeat(padding));
      return false;
    },
  });
});
afterAll(() => server.close());

async function showWithPadding(bytes: number, nodeOptions?: string) {
  padding = bytes;
  const env = { ...serverEnv(server), ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}) };
  return runCli(['--no-cache', '--retries', '0', 'show', 'Push_Up', '--json'], { env, timeoutMs: 15_000 });
}

describe('the header size limit of the bundled undici', () => {
  it('reads an answer whose headers fit in it', async () => {
    const r = await showWithPadding(12 * 1024);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ id: 'Push_Up' });
  });

  it('refuses an answer whose headers are larger, as a network error', async () => {
    const r = await showWithPadding(20 * 1024);
    expect(r.code).toBe(ExitCode.NETWORK);
    expect(r.stdout).toBe('');
  });

  it('follows --max-http-header-size when it is given', async () => {
    const r = await showWithPadding(20 * 1024, '--max-http-header-size=65536');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ id: 'Push_Up' });
  });
});
