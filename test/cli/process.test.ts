/**
 * What only a real process shows, so the built CLI runs as a child here: main() turning
 * Ctrl-C into exit 130, and a reader that closes the pipe early (`| head`) ending the run
 * quietly. Everything else about exit codes runs in-process (exit-codes.test.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { type CatalogueServer, startServer } from '../helpers/server.js';
import { serverEnv } from '../helpers/fixtures.js';

type Fault = (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;

let server: CatalogueServer;
let fault: Fault | undefined;
beforeAll(async () => {
  server = await startServer({ intercept: (req, res) => (fault ? fault(req, res) : false) });
});
afterAll(() => server.close());

describe('the CLI as a process', () => {
  it('exits 130 on Ctrl-C while waiting for the server', async () => {
    // Ctrl-C once the request has reached the server, which never answers: the CLI is surely
    // waiting then (a fixed delay may come before a busy machine has even started it).
    let child: import('node:child_process').ChildProcess | undefined;
    let started = 0;
    fault = () => {
      setTimeout(() => {
        started = Date.now();
        child?.kill('SIGINT');
      }, 100);
      return true;
    };
    const r = await runCli(['ids', '--all'], {
      env: serverEnv(server),
      timeoutMs: 15_000,
      onSpawn: (spawned) => (child = spawned),
    });
    expect(r.signal).toBeNull();
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(/Interrupted/);
    expect(started).toBeGreaterThan(0);
    expect(Date.now() - started).toBeLessThan(3500); // did not wait for the 30 s timeout or the 3 s fallback
  });

  it('stops quietly with exit 0 when the reader closes the pipe (`| head -1`)', async () => {
    // Every page after the first comes late, so the pipe is surely closed when it is written.
    fault = async (req) => {
      if (req.url?.includes('after=')) await new Promise((r) => setTimeout(r, 150));
      return false;
    };
    let firstChunk = '';
    const r = await runCli(['ids', '--all', '--limit', '5', '--format', 'jsonl'], {
      env: serverEnv(server),
      timeoutMs: 15_000,
      onSpawn: (child) =>
        child.stdout!.once('data', (b: Buffer) => {
          firstChunk = b.toString('utf8');
          child.stdout!.destroy();
        }),
    });
    expect(firstChunk).toMatch(/^\{"id":/);
    expect(r.signal).toBeNull();
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    // It stopped at the broken pipe instead of fetching every page.
    expect(server.requests.filter((q) => q.path === '/exercise/exerciseIds').length).toBeLessThan(5);
  });
});
