/**
 * Class 7b, the key echoed where it is kept and shown later: in X-RateLimit-* / RateLimit
 * headers (stored in the ledger, printed by `quota` in every format, logged by --verbose),
 * also split by C1 control bytes that a sanitiser would strip (joining the key again), and in
 * an error body split by controls. One redaction (src/util/text.ts) serves every place.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { keyHash } from '../../src/cache/cached-get.js';
import { type Attack, type HostileServer, send, startHostileServer } from '../helpers/hostile-server.js';
import { KEY, allFileText, cli, tempDir } from './support.js';

let server: HostileServer;
let home: string;
beforeAll(async () => (server = await startHostileServer()));
afterAll(() => server.close());
beforeEach(() => (home = tempDir('hostile-redact-')));
afterEach(() => {
  server.reset();
  rmSync(home, { recursive: true, force: true });
});

/** The key with a C1 CSI byte after its fifth character: latin1 on the wire, dropped by any sanitiser. */
const SPLIT_KEY = `${KEY.slice(0, 5)}\u009b${KEY.slice(5)}`;

/** A record whose answer echoes the request's key in rate-limit headers, whole and split. */
const echoInHeaders: Attack = (req, res, s) => {
  const key = String(req.headers['x-api-key'] ?? '');
  void send(JSON.stringify({ id: 'Plank', name: 'Plank' }), {
    headers: {
      'x-ratelimit-limit': '100',
      'x-ratelimit-remaining': `99; client=${key}`,
      'ratelimit-policy': Buffer.from(`100;w=3600;id=${SPLIT_KEY.replace(KEY, key)}`, 'latin1').toString('latin1'),
    },
  })(req, res, s);
};

const run = (args: string[]) => cli(server, args, { env: { HOME: home } });

function expectNoKey(text: string): void {
  expect(text).not.toContain(KEY);
  expect(text.replace(/[^\x20-\x7e]/g, '')).not.toContain(KEY);
}

describe('the key echoed in rate-limit headers', () => {
  it('is kept redacted in the ledger, and shown redacted by quota in every format and by --verbose', async () => {
    server.route(/^\/exercise\//, echoInHeaders);
    const shown = await run(['--no-cache', '-v', '--budget', '5', 'show', 'Plank']);
    expect(shown.code, shown.stderr).toBe(0);
    expectNoKey(shown.stderr);
    expect(shown.stderr).toMatch(/x-ratelimit-remaining=99; client=\*\*\*/);
    const ledgerText = readFileSync(join(home, '.cache', 'exercises', 'ledger.json'), 'utf8');
    expect(ledgerText).toContain('client=***');
    expectNoKey(allFileText(home));
    for (const format of [[], ['--json'], ['--format', 'jsonl'], ['--format', 'csv'], ['--format', 'tsv'], ['--format', 'table']]) {
      const q = await run(['quota', ...format]);
      expect(q.code, q.stderr).toBe(0);
      expect(q.stdout).toMatch(/client=\*\*\*/);
      expectNoKey(q.stdout + q.stderr);
    }
  });

  it('a ledger written before redaction (the key in clear) is still shown redacted by quota', async () => {
    const dir = join(home, '.cache', 'exercises');
    mkdirSync(dir, { recursive: true });
    const connection = `${new URL(server.url).origin} ${keyHash(KEY)}`;
    const month = new Date().toISOString().slice(0, 7);
    writeFileSync(
      join(dir, 'ledger.json'),
      JSON.stringify({
        version: 1,
        counts: { [month]: { [connection]: 3 } },
        rateLimits: { [connection]: { seenAt: Date.now(), remaining: 7, headers: { 'x-ratelimit-remaining': `7 key=${KEY}` } } },
      }),
    );
    for (const format of [[], ['--json'], ['--format', 'jsonl']]) {
      const q = await run(['quota', ...format]);
      expect(q.code, q.stderr).toBe(0);
      expect(q.stdout).toMatch(/key=\*\*\*/);
      expectNoKey(q.stdout);
    }
  });
});

describe('the key split by control bytes in an error body', () => {
  it('is redacted before the sanitiser joins it again', async () => {
    server.route(/^\/exercise\//, (req, res, s) => {
      const key = String(req.headers['x-api-key'] ?? '');
      const message = `bad key ${key.slice(0, 5)}\u001b${key.slice(5, 9)}\u200b${key.slice(9)}`;
      void send(JSON.stringify({ error: { code: 'denied', message } }), { status: 403 })(req, res, s);
    });
    const r = await run(['--no-cache', 'show', 'Plank']);
    expect(r.code).toBe(3);
    expectNoKey(r.stderr);
    expect(r.stderr).toMatch(/bad key \*\*\*/);
  });
});
