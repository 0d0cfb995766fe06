/**
 * The bottom of the transport (exchange.ts): one attempt over the one undici dispatcher, an Agent
 * made on the first request that really leaves (undici is loaded only then). An attempt is
 * cancelled by whichever comes first: Ctrl-C, the caller's signal, or its whole life
 * (config/time-limits.ts: a request's, a download's, or what is left of the command's deadline);
 * undici's own timeouts do the idle limits (headers and body on coarse timers: a
 * bound of t fires between t and t + ~1 s). Its failures become project errors (failures.ts).
 * `localhost`, which the URL policy trusts as loopback, is answered with the loopback addresses,
 * never asked of DNS or /etc/hosts, so it cannot lead anywhere else.
 *
 * SignalWatch keeps ONE listener per AbortSignal for all its attempts in flight: paging `--all`
 * makes hundreds of requests on the same Ctrl-C signal, each of which then joins a set instead
 * of adding a listener to the signal and removing it.
 */
import type { Dispatcher } from 'undici';
import type { Exchange, Incoming, Outgoing } from './exchange.js';
import { type LookupAddress, type LookupOptions, lookup } from 'node:dns';
import { type CliError, InterruptedError } from '../errors.js';
import { type TimeSettings, deadlineError, idleMs, mediaMs, nowMs, requestMs, startDeadline } from '../config/time-limits.js';
import { markNeverWritten, networkError, proxyRefusal, wasNeverWritten } from './failures.js';
import { CancelSignal, dispatchBody } from './body.js';
import { loadUndici } from '../vendor/load.js';
import { LOOPBACK_NAME } from '../util/url-policy.js';
import type { ProxyChoice } from './proxy-env.js';
import { tunnelConnector } from './proxy-tunnel.js';

interface Watched {
  attempts: Set<CancelSignal>;
  onAbort: () => void;
}

class SignalWatch {
  /** Attempts in flight, by a signal that cancels them (read by tests: empty once all finished). */
  readonly inFlight = new Map<AbortSignal, Watched>();

  /** Cancels `attempt` with `reason()` when `signal` aborts (at once if it already has), until release(). */
  watch(signal: AbortSignal, attempt: CancelSignal, reason: () => unknown): void {
    if (signal.aborted) {
      attempt.abort(reason());
      return;
    }
    let entry = this.inFlight.get(signal);
    if (!entry) {
      const attempts = new Set<CancelSignal>();
      const onAbort = (): void => {
        for (const a of attempts) a.abort(reason());
      };
      entry = { attempts, onAbort };
      this.inFlight.set(signal, entry);
      signal.addEventListener('abort', onAbort, { once: true });
    }
    entry.attempts.add(attempt);
  }

  release(signal: AbortSignal, attempt: CancelSignal): void {
    const entry = this.inFlight.get(signal);
    if (!entry) return;
    entry.attempts.delete(attempt);
    if (entry.attempts.size === 0) {
      signal.removeEventListener('abort', entry.onAbort);
      this.inFlight.delete(signal);
    }
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** IPv4 first, as Node's own `localhost` answer usually is; both are tried when Node races address families. */
const LOOPBACK_ADDRESSES: readonly LookupAddress[] = [
  { address: '127.0.0.1', family: 4 },
  { address: '::1', family: 6 },
];

/** The agent's `connect.lookup`: `localhost` (or `localhost.`) is the loopback addresses; every other name resolves as Node would. */
export function loopbackLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  if (hostname.toLowerCase().replace(/\.$/, '') !== LOOPBACK_NAME) {
    lookup(hostname, options, callback as (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family: number) => void);
    return;
  }
  const wanted = LOOPBACK_ADDRESSES.filter((a) => !options.family || options.family === a.family || options.family === `IPv${a.family}`);
  const addresses = wanted.length > 0 ? wanted : LOOPBACK_ADDRESSES;
  // Asynchronous, as a real lookup is: net expects its callback on a later tick.
  const copies = addresses.map((a) => ({ ...a }));
  process.nextTick(() => (options.all ? callback(null, copies) : callback(null, copies[0]!.address, copies[0]!.family)));
}

/**
 * A keep-alive Agent, with no cap on sockets per origin (callers bound their own concurrency).
 * With `proxy` (proxy-env.ts chose it, for https:// targets) every connection is a CONNECT
 * tunnel through it (proxy-tunnel.ts): the proxy sees the target's host and port and nothing of
 * the request, and resolves the target's name; the API key is a request header, inside the tunnel.
 */
async function createAgent(timeoutMs: number, proxy: ProxyChoice | undefined): Promise<Dispatcher> {
  const { Agent } = await loadUndici();
  const connect = proxy ? tunnelConnector(proxy, timeoutMs, loopbackLookup) : { timeout: timeoutMs, lookup: loopbackLookup };
  return new Agent({ connect, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
}

/**
 * Where an attempt is sent: to the target, or, for an http:// target behind a proxy, to the
 * proxy in absolute form (`GET http://host:port/path`, as curl sends it), with the proxy's
 * credentials; an https:// target behind one goes through its tunnel agent instead.
 */
function destination(
  url: URL,
  proxy: ProxyChoice | undefined,
  headers: Record<string, string>,
): { origin: string; path: string; headers: Record<string, string> } {
  const path = `${url.pathname}${url.search}`;
  if (!proxy || url.protocol !== 'http:') return { origin: url.origin, path, headers };
  const auth: Record<string, string> = proxy.authorization ? { 'proxy-authorization': proxy.authorization } : {};
  return { origin: new URL(proxy.url).origin, path: `${url.origin}${path}`, headers: { ...headers, host: url.host, ...auth } };
}

export interface AttemptOptions {
  /** --timeout, which every limit of an attempt is computed from (config/time-limits.ts). */
  settings: Pick<TimeSettings, 'timeout'>;
  /** Where requests go instead of an Agent of ours (a test's MockAgent); its owner closes it. */
  dispatcher?: Dispatcher | undefined;
  /** Keeps the key out of the messages. */
  redact: (text: string) => string;
  /** The forward proxy for requests to an origin (proxy-env.ts), or undefined to go direct; unused with `dispatcher`. */
  proxyFor?: ((url: URL) => ProxyChoice | undefined) | undefined;
}

export class Attempts {
  /** The attempts in flight, by the signals that cancel them. */
  readonly signals = new SignalWatch();
  /** Our agents, by the URL of the forward proxy they tunnel through ('' for the direct one), made on first use. */
  private agents = new Map<string, Promise<Dispatcher>>();
  /** The direct one, once made (no await per request then). */
  private ready: Dispatcher | undefined;

  constructor(private readonly options: AttemptOptions) {}

  private proxyOf(url: URL): ProxyChoice | undefined {
    return this.options.dispatcher ? undefined : this.options.proxyFor?.(url);
  }

  /** The dispatcher a request to `url` goes through: the given one, a proxy's tunnel agent (https), or the direct one. */
  private dispatcherFor(url: URL, proxy: ProxyChoice | undefined): Dispatcher | Promise<Dispatcher> {
    const tunnel = proxy && url.protocol === 'https:' ? proxy : undefined;
    const key = tunnel?.url ?? '';
    const ready = this.options.dispatcher ?? (key === '' ? this.ready : undefined);
    if (ready) return ready;
    let agent = this.agents.get(key);
    if (!agent) {
      const made = (agent = createAgent(idleMs(this.options.settings), tunnel));
      this.agents.set(key, made);
      // Unless close() came first: then the next request makes a new one.
      if (key === '') made.then((a) => this.agents.get('') === made && (this.ready = a)).catch(() => {});
    }
    return agent;
  }

  /** A failure of an attempt as the project's error: an abort by any of `signals` is an interruption. */
  failure(err: unknown, url: URL, signals: readonly AbortSignal[]): CliError {
    const failure = signals.some((s) => s.aborted)
      ? new InterruptedError()
      : networkError(err, url, idleMs(this.options.settings), this.options.redact, this.proxyOf(url));
    // A failure before the request was written stays known as one (failures.ts), for the ledger.
    return wasNeverWritten(err) ? markNeverWritten(failure) : failure;
  }

  readonly send: Exchange = async (request: Outgoing) => {
    const { url, signals, command, progress } = request;
    const proxy = this.proxyOf(url);
    const chosen = this.dispatcherFor(url, proxy);
    const agent = chosen instanceof Promise ? await chosen : chosen;
    // Loading undici (and the layers above: the ledger) may have outlasted a Ctrl-C or the caller's abort.
    if (signals.some((s) => s.aborted)) throw markNeverWritten(new InterruptedError());

    // A JSON attempt may take what is left of the command's deadline, if that is less than its own bound.
    const commandLeft = command?.remainingMs();
    if (command && commandLeft === 0) throw markNeverWritten(command.error(request.what));
    const endBusy = command?.begin();

    const cancel = new CancelSignal();
    for (const s of signals) this.signals.watch(s, cancel, () => new InterruptedError());
    const { settings, redact } = this.options;
    const own = progress ? 0 : requestMs(settings);
    const byCommand = command !== undefined && commandLeft !== undefined && commandLeft < own;
    const clearDeadline = startDeadline(
      nowMs(),
      progress ? () => mediaMs(settings, progress.bytes, progress.minBytesPerSecond) : () => (byCommand ? commandLeft : own),
      (elapsed) =>
        cancel.abort(byCommand ? command.error(request.what, 'while waiting for the answer') : deadlineError(url, elapsed, settings, progress, redact)),
    );
    // Run once: when the body is over, or when the request failed before its head.
    const finish = (): void => {
      clearDeadline();
      endBusy?.();
      for (const s of signals) this.signals.release(s, cancel);
    };

    let res: Incoming;
    try {
      const options = { ...destination(url, proxy, request.headers), method: 'GET' as const, signal: cancel, progress };
      res = await dispatchBody(agent, options, (err) => this.failure(err, url, signals));
    } catch (err) {
      finish();
      throw this.failure(err, url, signals);
    }
    res.body.onClose(finish);
    // Only a proxy asks for proxy credentials: its answer, not the service's, which never saw the request.
    if (res.status === 407 && proxy) {
      res.body.discard();
      throw markNeverWritten(proxyRefusal(proxy, 407, url.host));
    }
    return res;
  };

  async close(): Promise<void> {
    const agents = [...this.agents.values()];
    this.agents = new Map();
    this.ready = undefined;
    await Promise.all(agents.map(async (agent) => (await agent).destroy()));
  }
}
