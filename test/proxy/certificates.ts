/**
 * Self-signed certificates for 127.0.0.1 made with the openssl command, valid for two days from
 * now or between given dates (`openssl ca` sets them: an expired certificate, one not valid yet,
 * one near its end), each with its key (mode 600).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const hasOpenssl = spawnSync('openssl', ['version']).status === 0;

function openssl(args: string[], cwd?: string): void {
  const made = spawnSync('openssl', args, { encoding: 'utf8', cwd });
  if (made.status !== 0) throw new Error(`openssl ${args[0]} failed: ${made.stderr}`);
}

/** `at` as openssl's dates: YYYYMMDDHHMMSSZ. */
const opensslDate = (at: Date): string =>
  at
    .toISOString()
    .replace(/[-:T]/g, '')
    .replace(/\.\d+Z$/, 'Z');

const NEW_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

/** A certificate and its key under `dir`, named `name`; `dates` for one outside the usual two days. */
export function makeCertificate(dir: string, name: string, dates?: { from: Date; to: Date }): { cert: string; key: string } {
  const cert = join(dir, `${name}.crt`);
  const key = join(dir, `${name}.key`);
  const subject = ['-subj', `/CN=${name}`];
  if (!dates) {
    openssl(['req', '-x509', ...NEW_KEY, '-keyout', key, '-out', cert, '-days', '2', ...subject, '-addext', 'subjectAltName=IP:127.0.0.1']);
  } else {
    const ca = join(dir, `${name}-ca`);
    mkdirSync(ca);
    writeFileSync(join(ca, 'index.txt'), '');
    writeFileSync(join(ca, 'serial'), '01\n');
    writeFileSync(
      join(ca, 'ca.cnf'),
      '[ca]\ndefault_ca = d\n[d]\ndatabase = index.txt\nnew_certs_dir = .\nserial = serial\ndefault_md = sha256\npolicy = p\n[p]\ncommonName = supplied\n',
    );
    openssl(['req', '-new', ...NEW_KEY, '-keyout', key, '-out', join(ca, 'req.csr'), ...subject]);
    openssl(
      [
        'ca',
        '-batch',
        '-config',
        'ca.cnf',
        '-selfsign',
        '-keyfile',
        key,
        '-in',
        'req.csr',
        '-notext',
        '-out',
        cert,
        '-startdate',
        opensslDate(dates.from),
        '-enddate',
        opensslDate(dates.to),
      ],
      ca,
    );
  }
  chmodSync(key, 0o600);
  return { cert, key };
}
