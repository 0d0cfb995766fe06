/**
 * The proxy's TLS certificate and key (`serve --tls-cert --tls-key`), read and checked as a
 * pair before they are used: at start, and again on each reload, so a certificate renewed
 * with the wrong key is refused while the one in use keeps serving. The key is a secret file
 * (owner-only, secret-files.ts); the certificate is public but read by the same bounded rule.
 */
import { createSecureContext } from 'node:tls';
import { UsageError } from '../errors.js';
import { readOwnerOnlyFile, readSmallFile } from './secret-files.js';

/** A certificate chain and its private key, PEM: the proxy then speaks https. */
export interface TlsFiles {
  cert: Buffer;
  key: Buffer;
}

export function readTlsFiles(certPath: string, keyPath: string): TlsFiles {
  const files = { cert: Buffer.from(readSmallFile(certPath, '--tls-cert')), key: Buffer.from(readOwnerOnlyFile(keyPath, '--tls-key')) };
  try {
    createSecureContext(files);
  } catch (err) {
    // OpenSSL's reason (`key values mismatch`, `no start line`) names no byte of the key.
    throw new UsageError(`--tls-cert ${certPath} and --tls-key ${keyPath} do not make a usable certificate and key (${(err as Error).message}).`, {
      hint: 'Both are PEM files: the certificate (chain) and the private key it was issued for.',
    });
  }
  return files;
}
