/**
 * The connector of an https:// target behind a forward proxy: a CONNECT tunnel (as curl makes
 * one), then TLS to the target inside it. The proxy's answers that are no tunnel become errors
 * naming the proxy, each ending its attempt: undici would retry a closed CONNECT at once, forever.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { type LookupFunction, type Socket, isIP } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { buildConnector } from 'undici';
import { NetworkError } from '../errors.js';
import type { ProxyChoice } from './proxy-env.js';
import { proxyError, proxyRefusal } from './failures.js';

/** An undici connector (an Agent's `connect`) that reaches every origin through `proxy`; the CONNECT and the TLS handshake get `timeoutMs` together. */
export function tunnelConnector(proxy: ProxyChoice, timeoutMs: number, lookup: LookupFunction): buildConnector.connector {
  const { protocol, hostname, port } = new URL(proxy.url);
  const send = protocol === 'https:' ? httpsRequest : httpRequest;
  return (options, callback) => {
    const target = `${isIP(options.hostname) === 6 ? `[${options.hostname}]` : options.hostname}:${options.port || 443}`;
    let settled = false;
    /** The tunnel once the proxy opened it, with the TLS inside it: closed if the attempt fails. */
    let tunnel: Socket | undefined;
    const settle = (err: Error | null, socket?: Socket): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) {
        tunnel?.destroy();
        callback(err, null);
      } else callback(null, socket!);
    };
    const req = send({
      host: hostname.replace(/^\[|\]$/g, ''),
      port,
      method: 'CONNECT',
      path: target,
      agent: false,
      lookup,
      headers: { host: target, ...(proxy.authorization && { 'proxy-authorization': proxy.authorization }) },
    });
    const timer = setTimeout(() => {
      req.destroy();
      const what = tunnel ? `opened a tunnel to ${target}, but no TLS handshake came through it` : `did not open a tunnel to ${target}`;
      settle(proxyError(proxy, `${what} within ${timeoutMs} ms`, { kind: 'timeout' }));
    }, timeoutMs);
    req.on('connect', (res: IncomingMessage, socket: Socket, head: Buffer) => {
      tunnel = socket;
      if (res.statusCode !== 200) {
        socket.destroy();
        return settle(proxyRefusal(proxy, res.statusCode ?? 0, target));
      }
      if (head.length > 0) socket.unshift(head);
      const servername = options.servername || (isIP(options.hostname) ? undefined : options.hostname);
      const tls = (tunnel = tlsConnect({ socket, ALPNProtocols: ['http/1.1'], ...(servername && { servername }) }));
      tls.once('secureConnect', () => settle(null, tls));
      tls.on('error', (err: Error) => {
        tls.destroy();
        settle(err);
      });
    });
    req.on('error', (err: NodeJS.ErrnoException) => settle(tunnelFailure(proxy, err, target)));
    req.end();
  };
}

/** A CONNECT that got no answer: closed or not HTTP is the proxy's doing, and says so; anything else (refused, no such host) networkError names. */
function tunnelFailure(proxy: ProxyChoice, err: NodeJS.ErrnoException, target: string): Error {
  if (err instanceof NetworkError) return err;
  if (err.code?.startsWith('HPE_'))
    return proxyError(proxy, `answered the request for a tunnel to ${target} with something that is not HTTP`, { final: true, cause: err });
  if (err.code === 'ECONNRESET') return proxyError(proxy, `closed the connection when asked for a tunnel to ${target}`, { cause: err });
  return err;
}
