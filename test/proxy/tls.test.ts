/**
 * `serve --upstream --tls-cert --tls-key`: the proxy speaks https with a certificate made here
 * (openssl, self-signed for IP:127.0.0.1), the CLI (a child process, as a user runs it) trusts
 * it through NODE_EXTRA_CA_CERTS and refuses it without; a new certificate is taken by setTls
 * (what SIGHUP does) for new connections; a certificate and a key that do not match are refused.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readTlsFiles } from '../../src/proxy/secret-files.js';
import { runCli } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp.js';
import { ALICE, type ProxyFixture, startProxy } from './proxy-helpers.js';

const hasOpenssl = spawnSync('openssl', ['version']).status === 0;
let dir: string;
let f: ProxyFixture | undefined;

/** A self-signed certificate for 127.0.0.1 and its key (mode 600), under the test's directory. */
function makeCertificate(name: string): { cert: string; key: string } {
  const cert = join(dir, `${name}.crt`);
  const key = join(dir, `${name}.key`);
  const made = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '2',
      '-subj',
      `/CN=${name}`,
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { encoding: 'utf8' },
  );
  if (made.status !== 0) throw new Error(`openssl failed: ${made.stderr}`);
  chmodSync(key, 0o600);
  return { cert, key };
}

beforeAll(() => {
  dir = tempDir('exercises-tls-');
});
afterAll(async () => {
  await f?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!hasOpenssl)('a proxy over TLS', () => {
  test('listens on https://; the CLI reaches it with NODE_EXTRA_CA_CERTS and refuses it without; a new certificate serves new connections', async () => {
    const first = makeCertificate('first');
    f = await startProxy({ tls: readTlsFiles(first.cert, first.key) });
    expect(f.proxy.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const show = (ca?: string) =>
      runCli(['--base-url', f!.proxy.url, 'show', 'Plank', '--json'], {
        env: { EXERCISES_API_KEY: ALICE, ...(ca ? { NODE_EXTRA_CA_CERTS: ca } : {}) },
        timeoutMs: 30_000,
      });

    const trusted = await show(first.cert);
    expect(trusted.stderr).toBe('');
    expect(trusted.code).toBe(0);
    expect((JSON.parse(trusted.stdout) as { id: string }).id).toBe('Plank');
    const untrusted = await show();
    expect(untrusted.code).toBe(6);
    expect(untrusted.stderr).toMatch(/certificate/i);

    const second = makeCertificate('second');
    f.proxy.setTls(readTlsFiles(second.cert, second.key));
    expect((await show(second.cert)).code).toBe(0);
    expect((await show(first.cert)).code).toBe(6);
  });

  test('a certificate with the key of another is refused before anything listens', () => {
    const a = makeCertificate('a');
    const b = makeCertificate('b');
    expect(() => readTlsFiles(a.cert, b.key)).toThrow(/do not make a usable certificate and key/);
    chmodSync(b.key, 0o644);
    expect(() => readTlsFiles(b.cert, b.key)).toThrow(/--tls-key .* may be read by others/);
  });
});
