/**
 * `serve --upstream --tls-cert --tls-key`: the proxy speaks https with a certificate made here
 * (openssl, self-signed for IP:127.0.0.1), the CLI (a child process, as a user runs it) trusts
 * it through NODE_EXTRA_CA_CERTS and refuses it without; a new certificate is taken by setTls
 * (what SIGHUP does) for new connections; a certificate and a key that do not match are refused,
 * and so is a certificate out of its dates, naming them; one near its end is warned of.
 */
import { chmodSync, rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readTlsFiles } from '../../src/proxy/secret-files.js';
import { runCli } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp.js';
import { ALICE, type ProxyFixture, startProxy } from './proxy-helpers.js';
import { hasOpenssl, makeCertificate as makeIn } from './certificates.js';

const makeCertificate = (name: string, dates?: { from: Date; to: Date }) => makeIn(dir, name, dates);

let dir: string;
let f: ProxyFixture | undefined;

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

  test('a certificate expired or not valid yet is refused, naming its dates; one ending within 14 days is warned of', () => {
    const day = 24 * 3_600_000;
    const now = Date.now();
    const expired = makeCertificate('expired', { from: new Date(now - 30 * day), to: new Date(now - day) });
    expect(() => readTlsFiles(expired.cert, expired.key)).toThrow(
      new RegExp(`^--tls-cert .*expired\\.crt has expired \\(valid from ${new Date(now - 30 * day).toISOString().slice(0, 10)}T\\S+Z to \\S+Z\\)\\.$`),
    );
    const early = makeCertificate('early', { from: new Date(now + 3 * day), to: new Date(now + 90 * day) });
    expect(() => readTlsFiles(early.cert, early.key)).toThrow(/early\.crt is not valid yet \(valid from \S+Z to \S+Z\)/);
    const warnings: string[] = [];
    const soon = makeCertificate('soon', { from: new Date(now - day), to: new Date(now + 10 * day + 3_600_000) });
    readTlsFiles(soon.cert, soon.key, (line) => warnings.push(line));
    expect(warnings).toEqual([
      expect.stringMatching(/^Warning: --tls-cert \S+soon\.crt expires in 10 days \(valid from .*\); renew it, then send the proxy SIGHUP\.$/),
    ]);
    const later = makeCertificate('later', { from: new Date(now - day), to: new Date(now + 20 * day) });
    readTlsFiles(later.cert, later.key, (line) => warnings.push(line));
    expect(warnings).toHaveLength(1);
  });
});
