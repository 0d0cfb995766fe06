/**
 * A private CA made with the openssl CLI for a test (as a company's own CA would be), a server
 * certificate it signs, and a TLS front on 127.0.0.1 that serves that certificate and passes the
 * bytes on to a plain server of the test's: an https:// service no machine trusts by default.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { type AddressInfo, type Socket, connect } from 'node:net';
import { join } from 'node:path';
import { type Server, createServer } from 'node:tls';

export const hasOpenssl = spawnSync('openssl', ['version']).status === 0;

export interface PrivateCa {
  /** The CA's certificate (PEM file): what NODE_EXTRA_CA_CERTS names. */
  caPath: string;
  cert: Buffer;
  key: Buffer;
}

function openssl(args: string[]): void {
  const made = spawnSync('openssl', args, { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`openssl ${args[0]} failed: ${made.stderr}`);
}

/** A CA and a certificate it signs for `names` (DNS names) and 127.0.0.1, valid two days, under `dir`. */
export function makePrivateCa(dir: string, names: string[]): PrivateCa {
  const file = (name: string): string => join(dir, name);
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl(['req', '-x509', ...ec, '-keyout', file('ca.key'), '-out', file('ca.pem'), '-days', '2', '-subj', '/CN=Exercises Test Private CA']);
  openssl(['req', ...ec, '-keyout', file('server.key'), '-out', file('server.csr'), '-subj', `/CN=${names[0]}`]);
  const san = [...names.map((n) => `DNS:${n}`), 'IP:127.0.0.1'].join(',');
  writeFileSync(file('server.ext'), `subjectAltName=${san}\nextendedKeyUsage=serverAuth\n`);
  openssl(
    ['x509', '-req', '-in', file('server.csr'), '-CA', file('ca.pem'), '-CAkey', file('ca.key'), '-set_serial', '2', '-days', '2'].concat([
      '-extfile',
      file('server.ext'),
      '-out',
      file('server.pem'),
    ]),
  );
  return { caPath: file('ca.pem'), cert: readFileSync(file('server.pem')), key: readFileSync(file('server.key')) };
}

export interface TlsFront {
  port: number;
  close(): Promise<void>;
}

/** TLS on `host`:`port` (0: any) with the CA's certificate, each connection piped to `host`:`targetPort`. */
export async function startTlsFront(ca: PrivateCa, targetPort: number, port = 0, host = '127.0.0.1'): Promise<TlsFront> {
  const sockets = new Set<Socket>();
  const track = (s: Socket): void => {
    sockets.add(s);
    s.on('error', () => {});
    s.on('close', () => sockets.delete(s));
  };
  const server: Server = createServer({ cert: ca.cert, key: ca.key }, (client) => {
    const plain = connect(targetPort, host);
    track(client);
    track(plain);
    client.pipe(plain).pipe(client);
  });
  server.on('tlsClientError', () => {});
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
