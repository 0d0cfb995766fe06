/**
 * --sandbox and --catalogue answer in-process (src/server/in-process.ts): the catalogue server's
 * handler run with no socket. Each answer must be the one `serve` gives over HTTP, byte for
 * byte, with the headers a client reads (but a JSON answer's ETag, left out in-process), through dispatch() as the transport sends
 * requests; a media body must arrive whole with pause and resume; an abort must stop it; and a CLI run so answered must open no socket.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Dispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessDispatcher } from '../../src/server/in-process.js';
import { sampleCatalogueDir } from '../../src/server/sandbox.js';
import { PREMIUM_KEY, FREE_KEY, startServer, type CatalogueServer } from '../helpers/server.js';
import { runCli } from '../helpers/run-cli.js';
import { dispatchGet } from './support.js';
import { tempDir } from '../helpers/temp.js';

let server: CatalogueServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const local = inProcessDispatcher({ dir: sampleCatalogueDir() });

/** Headers a client reads, as both sides give them (lower-case names). */
const READ = ['content-type', 'content-length', 'etag', 'content-range', 'accept-ranges', 'cache-control', 'last-modified', 'allow'];
const pick = (headers: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(READ.filter((h) => headers[h] !== undefined).map((h) => [h, headers[h]]));

const CASES: { what: string; path: string; headers?: Record<string, string> }[] = [
  { what: 'a record', path: '/exercise/Push_Up', headers: { 'X-API-Key': PREMIUM_KEY } },
  { what: 'a record by name, free plan', path: '/exercise/Push-Up', headers: { 'X-API-Key': FREE_KEY } },
  { what: 'a translated record', path: '/exercise/Push_Up?lang=de-DE', headers: { 'X-API-Key': PREMIUM_KEY } },
  { what: 'a query page', path: '/exercise/query?primaryMuscle=CHEST&limit=2', headers: { 'X-API-Key': PREMIUM_KEY } },
  { what: 'an ids page', path: '/exercise/exerciseIds?limit=3', headers: { 'X-API-Key': PREMIUM_KEY } },
  { what: 'a bad enum', path: '/exercise/query?primaryMuscle=WINGS', headers: { 'X-API-Key': PREMIUM_KEY } },
  { what: 'an unknown id', path: '/exercise/No_Such_Thing', headers: { 'X-API-Key': PREMIUM_KEY } },
  { what: 'no key', path: '/exercise/Push_Up' },
  { what: 'premium media on the free plan', path: '/videos/Plank/premium/demo.mp4', headers: { 'X-API-Key': FREE_KEY } },
  { what: 'a whole video', path: '/videos/Plank/premium/demo.mp4', headers: { 'X-API-Key': PREMIUM_KEY } },
  { what: 'a range of a video', path: '/videos/Plank/premium/demo.mp4', headers: { 'X-API-Key': PREMIUM_KEY, Range: 'bytes=10-99' } },
  { what: 'an unsatisfiable range', path: '/videos/Plank/premium/demo.mp4', headers: { 'X-API-Key': PREMIUM_KEY, Range: 'bytes=999999999-' } },
  { what: 'a revalidation', path: '/exercise/Plank', headers: { 'X-API-Key': PREMIUM_KEY, 'If-None-Match': '*' } },
];

describe('the in-process catalogue', () => {
  for (const { what, path, headers } of CASES) {
    it(`answers ${what} as the server does`, async () => {
      const viaSocket = await fetch(`${server.url}${path}`, { headers: headers ?? {} });
      const socketBody = Buffer.from(await viaSocket.arrayBuffer());
      const viaProcess = await dispatchGet(local, path, headers);
      expect(viaProcess.statusCode).toBe(viaSocket.status);
      expect(viaProcess.body.equals(socketBody)).toBe(true);
      const socketHeaders = Object.fromEntries(viaSocket.headers.entries());
      if (path.startsWith('/exercise/') && (viaSocket.status === 200 || viaSocket.status === 304)) {
        // A JSON answer in-process has no ETag (nothing there revalidates); the server's has one.
        expect(socketHeaders.etag).toMatch(/^"[\w-]{27}"$/);
        expect(viaProcess.headers.etag).toBeUndefined();
        delete socketHeaders.etag;
      }
      expect(pick(viaProcess.headers)).toEqual(pick(socketHeaders));
    });
  }

  it('hands a media body over chunk by chunk through dispatch(), honouring pause and resume', async () => {
    const file = readFileSync(join(sampleCatalogueDir(), 'videos', 'Plank', 'premium', 'demo.mp4'));
    const chunks: Buffer[] = [];
    let status = 0;
    let pauses = 0;
    const done = new Promise<void>((resolve, reject) => {
      const handler: Dispatcher.DispatchHandler = {
        onResponseStart: (_c, statusCode) => void (status = statusCode),
        onResponseData: (controller, chunk) => {
          chunks.push(chunk);
          // Pause after each chunk and resume a moment later: nothing may be lost or doubled.
          controller.pause();
          pauses++;
          setTimeout(() => controller.resume(), 1);
        },
        onResponseEnd: () => resolve(),
        onResponseError: (_c, err) => reject(err),
      };
      local.dispatch({ path: '/videos/Plank/premium/demo.mp4', method: 'GET', headers: { 'x-api-key': PREMIUM_KEY } }, handler);
    });
    await done;
    expect(status).toBe(200);
    expect(pauses).toBeGreaterThan(0);
    expect(Buffer.concat(chunks).equals(file)).toBe(true);
  });

  it('stops a body when the transport aborts it mid-way, and says why', async () => {
    const reason = new Error('Ctrl-C');
    const seen: unknown[] = [];
    await new Promise<void>((resolve) => {
      const handler: Dispatcher.DispatchHandler = {
        onResponseData: (controller) => controller.abort(reason),
        onResponseEnd: () => void seen.push('end'),
        onResponseError: (_c, err) => void seen.push(err),
      };
      local.dispatch({ path: '/videos/Plank/premium/demo.mp4', method: 'GET', headers: { 'x-api-key': PREMIUM_KEY } }, handler);
      setTimeout(resolve, 50);
    });
    // The reason, once, and no end of the body after it.
    expect(seen).toEqual([reason]);
  });
});

describe('--sandbox, answered in-process by the built CLI', () => {
  it('opens no socket and loads no HTTP client', async () => {
    // A preload that fails the run if a socket is made or undici's vendor file is required.
    const guard = fileURLToPath(new URL('./fixtures/no-socket.cjs', import.meta.url));
    const r = await runCli(['--sandbox', 'show', 'Plank', '--json'], { env: { NODE_OPTIONS: `--require ${guard}` }, timeoutMs: 15_000 });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ id: 'Plank' });
  });

  it('a --catalogue show into a pipe loads no node:fs/promises', async () => {
    // The catalogue is read with synchronous calls, answered in-process.
    const trace = fileURLToPath(new URL('../cache/fixtures/trace-requires.cjs', import.meta.url));
    const dir = tempDir('exercises-trace-');
    const builtinsFile = join(dir, 'builtins.json');
    const r = await runCli(['--catalogue', sampleCatalogueDir(), 'show', 'Plank', '--json'], {
      env: { NODE_OPTIONS: `--require ${trace}`, TRACE_REQUIRES_FILE: join(dir, 'loaded.json'), TRACE_BUILTINS_FILE: builtinsFile },
      timeoutMs: 15_000,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ id: 'Plank' });
    const builtins = JSON.parse(readFileSync(builtinsFile, 'utf8')) as string[];
    expect(builtins).toContain('fs');
    expect(builtins).not.toContain('fs/promises');
  });
});
