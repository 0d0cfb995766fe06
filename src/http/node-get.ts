/**
 * One GET over Node's built-in http/https client with a keep-alive agent, for every request
 * the CLI makes. Node's client uses the HTTP parser compiled into Node itself, while undici
 * loads ~300 KB of JavaScript and compiles its WebAssembly parser in every new process:
 * more than the whole start-up budget of `show` (bench/startup.mjs), and in bulk downloads
 * more CPU per byte and a higher peak RSS (bench/download.mjs). See the README.
 *
 * Timeouts: connect, headers and body idle, each `timeoutMs`; they fail with an error whose
 * `code` is CONNECT_TIMEOUT, HEADERS_TIMEOUT or BODY_TIMEOUT.
 */
import * as http from 'node:http';
import type { Agent as HttpAgent, ClientRequest, IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';

type HttpsModule = typeof import('node:https');
let https: HttpsModule | undefined;

/**
 * node:https (which loads TLS) is loaded only for https URLs; with require() rather than
 * import(), as a dynamic import() would start Node's ES module loader in the bundled
 * CommonJS CLI just for this built-in.
 */
function loadHttps(): HttpsModule {
  https ??= createRequire(import.meta.url)('node:https') as HttpsModule;
  return https;
}

export interface NodeResponse {
  statusCode: number;
  headers: IncomingHttpHeaders;
  body: IncomingMessage;
}

export interface NodeGetOptions {
  headers: Record<string, string>;
  timeoutMs: number;
  /** Any of these aborting cancels the request (Ctrl-C's, and the caller's own). */
  signals?: readonly AbortSignal[];
}

function timeoutError(code: 'CONNECT_TIMEOUT' | 'HEADERS_TIMEOUT' | 'BODY_TIMEOUT', ms: number): Error {
  return Object.assign(new Error(`${code.toLowerCase().replace('_', ' ')} after ${ms} ms`), { code });
}

/** The error http.request's own `signal` option destroys a request with. */
function abortError(signal: AbortSignal): Error {
  return Object.assign(new Error('The operation was aborted'), { name: 'AbortError', code: 'ABORT_ERR', cause: signal.reason });
}

/** Keep-alive agents, one per protocol, created on first use. */
export class NodeAgents {
  private agents = new Map<string, HttpAgent>();
  /**
   * Requests in flight, by a signal that cancels them. One 'abort' listener per signal
   * rather than one per request (http.request's `signal` option): paging `--all` makes
   * hundreds of requests, and adding and removing a listener each time shows in profiles.
   * The entry and its listener go once the signal's last request has closed, so a long run
   * that passes a new signal per job (bulk downloads) leaves nothing behind.
   */
  private inFlight = new Map<AbortSignal, { requests: Set<ClientRequest>; onAbort: () => void }>();

  private track(req: ClientRequest, signal: AbortSignal): void {
    let entry = this.inFlight.get(signal);
    if (!entry) {
      const requests = new Set<ClientRequest>();
      // What http.request does with `signal`: destroy the request with an AbortError.
      const onAbort = (): void => {
        for (const r of requests) r.destroy(abortError(signal));
      };
      entry = { requests, onAbort };
      this.inFlight.set(signal, entry);
      signal.addEventListener('abort', onAbort, { once: true });
    }
    const tracked = entry;
    tracked.requests.add(req);
    req.once('close', () => {
      tracked.requests.delete(req);
      if (tracked.requests.size === 0 && this.inFlight.get(signal) === tracked) {
        signal.removeEventListener('abort', tracked.onAbort);
        this.inFlight.delete(signal);
      }
    });
  }

  async get(url: URL, options: NodeGetOptions): Promise<NodeResponse> {
    const secure = url.protocol === 'https:';
    const mod: typeof http | HttpsModule = secure ? loadHttps() : http;
    let agent = this.agents.get(url.protocol);
    if (!agent) {
      // No socket cap here: callers bound their own concurrency (show's window, --concurrency).
      agent = new mod.Agent({ keepAlive: true });
      this.agents.set(url.protocol, agent);
    }
    const ms = options.timeoutMs;

    return new Promise<NodeResponse>((resolve, reject) => {
      let phase: 'connect' | 'headers' | 'body' = 'connect';
      const req = mod.request(url, { method: 'GET', headers: options.headers, agent });
      const signals = options.signals ?? [];
      const aborted = signals.find((signal) => signal.aborted);
      if (aborted) req.destroy(abortError(aborted));
      else for (const signal of signals) this.track(req, signal);
      // Socket idle time, in each phase: connecting, waiting for the headers, reading the body.
      req.setTimeout(ms, () => {
        const err = timeoutError(phase === 'connect' ? 'CONNECT_TIMEOUT' : phase === 'headers' ? 'HEADERS_TIMEOUT' : 'BODY_TIMEOUT', ms);
        req.destroy(err);
      });
      req.on('socket', (socket) => {
        if (socket.connecting) socket.once('connect', () => (phase = 'headers'));
        else phase = 'headers';
      });
      req.on('response', (res) => {
        phase = 'body';
        // A timeout or reset while the caller reads the body surfaces as the body's error.
        req.on('error', (err) => res.destroy(err));
        resolve({ statusCode: res.statusCode ?? 0, headers: res.headers, body: res });
      });
      req.on('error', reject);
      req.end();
    });
  }

  close(): void {
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }
}
