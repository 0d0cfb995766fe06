/**
 * The `lookup` the transport's sockets use (undici's `connect.lookup`, passed on to
 * net.connect / tls.connect): the name `localhost`, which the URL policy trusts as loopback
 * (url-policy.ts), is answered here with the loopback addresses and never asked of DNS or
 * /etc/hosts, so it cannot lead anywhere else. Every other name resolves as Node would.
 * Called only by the agent's sockets, when a request goes out.
 */
import { type LookupAddress, type LookupOptions, lookup } from 'node:dns';
import { LOOPBACK_NAME } from '../util/url-policy.js';

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** IPv4 first, as Node's own `localhost` answer usually is; both are tried when Node races address families. */
const LOOPBACK_ADDRESSES: readonly LookupAddress[] = [
  { address: '127.0.0.1', family: 4 },
  { address: '::1', family: 6 },
];

export function loopbackLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  if (hostname.toLowerCase() !== LOOPBACK_NAME) {
    // node:dns is loaded only for a name to resolve (the bundle requires it on first use,
    // scripts/bundle.mjs LAZY_BUILTINS): an IP literal (127.0.0.1 above all) never needs it.
    lookup(hostname, options, callback as (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family: number) => void);
    return;
  }
  const wanted = LOOPBACK_ADDRESSES.filter((a) => !options.family || options.family === a.family || options.family === `IPv${a.family}`);
  const addresses = wanted.length > 0 ? wanted : LOOPBACK_ADDRESSES;
  // Asynchronous, as a real lookup is: net expects its callback on a later tick.
  process.nextTick(() => {
    if (options.all)
      callback(
        null,
        addresses.map((a) => ({ ...a })),
      );
    else callback(null, addresses[0]!.address, addresses[0]!.family);
  });
}
