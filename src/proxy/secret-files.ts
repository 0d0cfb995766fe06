/**
 * The files a proxy reads its secrets from: the clients' keys (`--keys-file`, one `key:plan` or
 * `key:plan:label` a line), the upstream key (`--upstream-key-file`) and the TLS key
 * (`--tls-key`). They must be readable by their owner only (mode 0600 or stricter), as ssh
 * insists for its keys: a key readable by the group or the world has already leaked. A file
 * never echoes a key back in an error message. The TLS certificate is public but read by the
 * same bounded rule, and checked with its key as a pair and for its dates before they are used:
 * at start, and again on each reload, so a certificate renewed wrongly is refused while the one
 * in use keeps serving.
 */
import { closeSync, readSync } from 'node:fs';
import { X509Certificate } from 'node:crypto';
import { createSecureContext } from 'node:tls';
import { CERT_RENEWAL_WARNING_MS, DAY_MS } from '../config/time-limits.js';
import { plural } from '../util/text.js';
import { UsageError } from '../errors.js';
import { type ClientKey, parseClientKey } from './client-keys.js';
import { RefusedFileError, openRegularFileSync } from '../util/safe-open.js';

/** Largest keys file (or upstream key file) read: thousands of keys fit many times over; a sparse or endless file is refused unread. */
export const SECRET_FILE_MAX_BYTES = 1024 * 1024;

/**
 * The text of `path`, refused unless it is a regular file within SECRET_FILE_MAX_BYTES that only
 * its owner may read or write. Opened by the one rule (util/safe-open.ts): the mode is the
 * descriptor's, so a FIFO or a file swapped in after a check is never read.
 */
export function readOwnerOnlyFile(path: string, flag: string): string {
  return readSmallFile(path, flag, { ownerOnly: true });
}

/**
 * The text of a regular file within SECRET_FILE_MAX_BYTES, by the same rule, for files that are
 * not secret but are read by the proxy all the same (a TLS certificate): a FIFO there must not stall it.
 */
function readSmallFile(path: string, flag: string, options: { ownerOnly?: boolean } = {}): string {
  let opened;
  try {
    opened = openRegularFileSync(path, { maxBytes: SECRET_FILE_MAX_BYTES });
  } catch (err) {
    if (err instanceof RefusedFileError) throw new UsageError(`${flag} ${err.message}.`);
    throw new UsageError(`${flag} ${path} cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'}).`);
  }
  const { fd, stat } = opened;
  try {
    if (options.ownerOnly && process.platform !== 'win32' && (stat.mode & 0o077) !== 0) {
      const mode = (stat.mode & 0o777).toString(8);
      const why = `${flag} ${path} may be read by others (mode ${mode}); it holds keys, so it must be readable by its owner only.`;
      throw new UsageError(why, { hint: `Run: chmod 600 ${path}` });
    }
    const bytes = Buffer.alloc(stat.size);
    let done = 0;
    for (let n = -1; n !== 0 && done < bytes.length; done += n) n = readSync(fd, bytes, done, bytes.length - done, done);
    const text = bytes.subarray(0, done).toString('utf8');
    // A UTF-8 byte order mark, which some editors put at the start of a file, is not part of the first key.
    return text.startsWith('\uFEFF') ? text.slice(1) : text;
  } finally {
    closeSync(fd);
  }
}

/** The lines of a keys file that hold something (trimmed; blank lines and `#` comments left out), with their numbers. */
function keyLines(text: string): Array<[line: string, number: number]> {
  return text
    .split(/\r?\n/)
    .map((raw, i): [string, number] => [raw.trim(), i + 1])
    .filter(([line]) => line !== '' && !line.startsWith('#'));
}

export interface KeysFileChecks {
  /** Refused as a client's key: the proxy's own would be handed out. */
  upstreamKey?: string;
  /** Told of a label given twice (both keys then count as one client). */
  warn?: (line: string) => void;
}

/**
 * `KEY:PLAN` or `KEY:PLAN:LABEL` lines (client-keys.ts) of a file as readSmallFile gives it (no
 * BOM); blank lines and lines starting with `#` are skipped. A bad line, a key given twice or the
 * upstream key is refused by its line number, never quoted; a label given twice is warned of.
 */
export function parseKeysFile(text: string, path: string, checks: KeysFileChecks = {}): Record<string, ClientKey> {
  const keys: Record<string, ClientKey> = {};
  const lineOf = new Map<string, number>();
  const labelLine = new Map<string, number>();
  for (const [line, number] of keyLines(text)) {
    const parsed = parseClientKey(line);
    if ('problem' in parsed) throw new UsageError(`${path}:${number}: ${parsed.problem}.`);
    const { key, client } = parsed;
    if (key === checks.upstreamKey) throw new UsageError(`${path}:${number}: this is the upstream key; a client needs a key of its own.`);
    const first = lineOf.get(key);
    if (first !== undefined) throw new UsageError(`${path}:${number}: the same key as line ${first}; each client needs a key of its own.`);
    lineOf.set(key, number);
    const { label } = client;
    const labelled = label === undefined ? undefined : labelLine.get(label);
    if (labelled !== undefined) checks.warn?.(`${path}:${number}: the label ${label} is also on line ${labelled}; both keys count as one client.`);
    else if (label !== undefined) labelLine.set(label, number);
    keys[key] = client;
  }
  if (Object.keys(keys).length === 0) throw new UsageError(`${path} holds no key: write one KEY:PLAN (or KEY:PLAN:LABEL) a line.`);
  return keys;
}

/**
 * The first non-blank line of an upstream key file. A file that reads as a keys file is refused:
 * pointing --upstream-key-file at the clients' keys would send a client's key upstream as the
 * proxy's, and every miss would come back refused.
 */
export function parseKeyFile(text: string, path: string): string {
  const key = keyLines(text)[0]?.[0];
  if (!key) throw new UsageError(`${path} holds no key.`);
  if (!('problem' in parseClientKey(key))) {
    throw new UsageError(`${path} reads as a keys file (KEY:PLAN lines), not as the upstream key.`, {
      hint: "The upstream key file holds the key the service gave you, alone on its line; the clients' keys go in --keys-file.",
    });
  }
  return key;
}

/** A certificate chain and its private key, PEM: the proxy then speaks https. */
export interface TlsFiles {
  cert: Buffer;
  key: Buffer;
}

/** `at` as ISO 8601 UTC to the second. */
const isoSeconds = (at: number): string => new Date(at).toISOString().replace(/\.\d+Z$/, 'Z');

/**
 * Refuses a certificate outside its dates (clients would refuse it), naming them; warns within
 * CERT_RENEWAL_WARNING_MS of its end. The first certificate of a chain is the proxy's own.
 */
function checkDates(cert: Buffer, path: string, warn: ((line: string) => void) | undefined): void {
  const now = Date.now();
  const x509 = new X509Certificate(cert);
  const [from, to] = [Date.parse(x509.validFrom), Date.parse(x509.validTo)];
  const dates = `valid from ${isoSeconds(from)} to ${isoSeconds(to)}`;
  const hint = 'Give it a certificate valid now (the proxy rereads it on SIGHUP).';
  if (now < from) throw new UsageError(`--tls-cert ${path} is not valid yet (${dates}).`, { hint });
  if (now > to) throw new UsageError(`--tls-cert ${path} has expired (${dates}).`, { hint });
  const days = Math.floor((to - now) / DAY_MS);
  if (to - now < CERT_RENEWAL_WARNING_MS)
    warn?.(`Warning: --tls-cert ${path} expires in ${plural(days, 'day')} (${dates}); renew it, then send the proxy SIGHUP.`);
}

/** The certificate and key, checked as a pair and for their dates (a warning to `warn` near the end). */
export function readTlsFiles(certPath: string, keyPath: string, warn?: (line: string) => void): TlsFiles {
  const files = { cert: Buffer.from(readSmallFile(certPath, '--tls-cert')), key: Buffer.from(readOwnerOnlyFile(keyPath, '--tls-key')) };
  try {
    createSecureContext(files);
  } catch (err) {
    // OpenSSL's reason (`key values mismatch`, `no start line`) names no byte of the key.
    throw new UsageError(`--tls-cert ${certPath} and --tls-key ${keyPath} do not make a usable certificate and key (${(err as Error).message}).`, {
      hint: 'Both are PEM files: the certificate (chain) and the private key it was issued for.',
    });
  }
  checkDates(files.cert, certPath, warn);
  return files;
}
