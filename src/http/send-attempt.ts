/**
 * One GET attempt of the transport, up to the response headers: the URL policy, the
 * beforeRequest hook, then undici, bounded by its deadline (deadline.ts: the JSON bound, or what
 * is left of the command's; the media rule of a minimum average rate) and cancelled by any of
 * the caller's signals. Failures become project errors; the body's own failures are the
 * caller's to map. The afterResponse hook (the request ledger) sees every response.
 */
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { type Bound, type Issue, REQUEST, type ResponseHeaders, type Sent, type TransportOptions } from './transport-types.js';
import { type CliError, InterruptedError } from '../errors.js';
import { AttemptSignal, type SignalWatch } from './attempt.js';
import { Deadline, jsonDeadlineMs, mediaDeadlineMs, nowMs } from './deadline.js';
import { deadlineError } from './network-errors.js';
import { DEADLINE_TIMEOUT_FACTOR, MEDIA_MIN_BYTES_PER_SECOND } from '../defaults.js';

/** What an attempt needs of its Transport. */
export interface AttemptContext {
  options(): TransportOptions;
  /** The attempts in flight, by the signals that cancel them. */
  signals: SignalWatch;
  assertAllowed(url: URL): void;
  /** The Agent once made (no await per request then). */
  ready(): Dispatcher | undefined;
  /** The Agent, made on the first request. */
  agent(): Promise<Dispatcher>;
  networkError(err: unknown, url: URL, signals: readonly AbortSignal[]): CliError;
  redact(text: string): string;
}

/**
 * One GET attempt, up to the response headers: the URL policy, the beforeRequest hook, then
 * undici, bounded by the deadline and cancelled by any of `signals`. Failures become project
 * errors; the body's own failures are the caller's to map (networkError / streamError).
 */
export async function sendAttempt<B = Readable>(
  t: AttemptContext,
  url: URL,
  headers: Record<string, string>,
  signals: readonly AbortSignal[],
  bound: Bound,
  issue: Issue<B> = REQUEST as unknown as Issue<B>,
): Promise<Sent<B>> {
  const options = t.options();
  t.assertAllowed(url);
  if (signals.some((s) => s.aborted)) throw new InterruptedError();
  const command = bound.kind === 'json' ? options.commandDeadline : undefined;
  const what = bound.kind === 'json' ? bound.what : url.pathname;
  // Checked before the ledger counts the request: a command out of time sends nothing more.
  if (command && command.remainingMs() === 0) throw command.error(what);
  if (options.beforeRequest) await options.beforeRequest(url);
  const agent = t.ready() ?? (await t.agent());
  // Either wait may have outlasted a Ctrl-C or the caller's abort.
  if (signals.some((s) => s.aborted)) throw new InterruptedError();

  // A JSON attempt may take what is left of the command's deadline, if that is less than its own bound.
  const commandLeft = command?.remainingMs();
  if (command && commandLeft === 0) throw command.error(what);
  const endBusy = command?.begin();

  const cancel = new AttemptSignal();
  for (const s of signals) t.signals.watch(s, cancel, () => new InterruptedError());
  const timeoutMs = options.timeoutMs;
  const own = bound.kind === 'json' ? jsonDeadlineMs(timeoutMs) : 0;
  const byCommand = command !== undefined && commandLeft !== undefined && commandLeft < own;
  const deadline = new Deadline(
    nowMs(),
    bound.kind === 'json' ? () => (byCommand ? commandLeft : own) : () => mediaDeadlineMs(timeoutMs, bound.progress.bytes),
    (elapsed) =>
      cancel.abort(
        byCommand ? command.error(what, 'while waiting for the answer') : deadlineError(url, elapsed, deadlineRule(options.timeoutMs, bound), t.redact),
      ),
  );
  let finished = false;
  const finish = (): void => {
    if (finished) return;
    finished = true;
    deadline.clear();
    endBusy?.();
    for (const s of signals) t.signals.release(s, cancel);
  };

  let res: { statusCode: number; headers: unknown; body: B };
  try {
    res = await issue.send(agent, {
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: 'GET',
      headers,
      signal: cancel,
      ...(bound.kind === 'media' ? { progress: bound.progress } : {}),
    });
  } catch (err) {
    finish();
    throw t.networkError(err, url, signals);
  }
  const responseHeaders = res.headers as ResponseHeaders;
  try {
    options.afterResponse?.(url, res.statusCode, responseHeaders);
  } catch (err) {
    issue.drop(res.body);
    finish();
    throw err;
  }
  return { status: res.statusCode, headers: responseHeaders, body: res.body, finish };
}

/** The bound of deadline.ts, in words for the error message. */
function deadlineRule(timeoutMs: number, bound: Bound): string {
  const ms = jsonDeadlineMs(timeoutMs);
  return bound.kind === 'json'
    ? `a request may take at most ${DEADLINE_TIMEOUT_FACTOR} × --timeout, ${ms} ms`
    : `after ${ms} ms a download must average at least ${Math.round(MEDIA_MIN_BYTES_PER_SECOND / 1024)} KiB/s`;
}
