/**
 * The JSON GET of the transport: attempts (send-attempt.ts) under the one retry policy
 * (retry-policy.ts), each body read within its cap, the status mapped to the project's errors,
 * a --verbose line per attempt, and the waits between attempts counted in the command's deadline.
 */
import type { Readable } from 'node:stream';
import { type Bound, type JsonAnswer, type Sent, type TransportOptions, headerValue, quotaHeaders } from './transport-types.js';
import { type CliError, NetworkError } from '../errors.js';
import { RETRYABLE_STATUSES, decideRetry, isRetryableError, sleep } from './retry-policy.js';
import { errorForStatus } from './status-errors.js';
import { nowMs } from './deadline.js';
import { isCommandDeadline } from './command-deadline.js';
import { ERROR_BODY_CAP, JSON_SIZE_CAP } from '../defaults.js';
import { parseJsonBody } from './json-body.js';

/** What the loop needs of its Transport. */
export interface JsonAttemptContext {
  options(): TransportOptions;
  send(url: URL, headers: Record<string, string>, signals: readonly AbortSignal[], bound: Bound): Promise<Sent<Readable>>;
  /** The body within `cap`, failing or truncated past it, with the transport's error mapping. */
  readBody(body: Readable, cap: number, overCap: 'fail' | 'truncate', url: URL, what: string, signals: readonly AbortSignal[]): Promise<Buffer>;
  /** --verbose is on: log lines are built only then. */
  verbose(): boolean;
  log(line: string): void;
  /** Keeps the key out of server text. */
  redact(text: string): string;
}

export interface JsonRequest {
  url: URL;
  headers: Record<string, string>;
  signals: readonly AbortSignal[];
  what: string;
  /** If-None-Match / If-Modified-Since: a 304 is an answer too, with no body. */
  conditional?: Record<string, string>;
}

export async function getJsonWithRetries(t: JsonAttemptContext, { url, headers, signals, what, conditional }: JsonRequest): Promise<JsonAnswer> {
  const options = t.options();
  const planned = options.retries + 1;

  for (let attempt = 1; ; attempt++) {
    const started = nowMs();
    let retryAfter: string | undefined;
    let failure: CliError;
    try {
      const res = await t.send(url, headers, signals, { kind: 'json', what });
      let bytes: Buffer;
      const ok = res.status >= 200 && res.status < 300;
      const notModified = res.status === 304 && conditional !== undefined;
      try {
        bytes = ok
          ? await t.readBody(res.body, JSON_SIZE_CAP, 'fail', url, what, signals)
          : await t.readBody(res.body, ERROR_BODY_CAP, 'truncate', url, what, signals);
      } finally {
        res.finish();
      }
      retryAfter = headerValue(res.headers, 'retry-after');
      if (t.verbose()) {
        const quota = quotaHeaders(res.headers);
        t.log(`GET ${url.href} → ${res.status} ${Math.round(nowMs() - started)} ms (attempt ${attempt}/${planned})${quota ? ` ${quota}` : ''}`);
      }
      if (notModified) return { status: 304, headers: res.headers };
      if (ok) return { status: 200, body: parseJsonBody(bytes, headerValue(res.headers, 'content-type') ?? '', url, what, t.redact), headers: res.headers };
      failure = errorForStatus(res.status, what, t.redact(bytes.toString('utf8')), t.redact);
      if (!RETRYABLE_STATUSES.has(res.status)) throw failure;
    } catch (err) {
      if (!(err instanceof NetworkError) || !isRetryableError(err) || isCommandDeadline(err)) throw err;
      t.log(`GET ${url.href} → failed after ${Math.round(nowMs() - started)} ms (attempt ${attempt}/${planned}): ${err.message}`);
      failure = err;
    }

    const decision = decideRetry({ attempts: attempt }, options.retries, failure, retryAfter);
    if (!decision.retry) {
      if (attempt < planned) t.log(`not retrying: ${decision.error.message}`);
      throw decision.error;
    }
    await waitToRetry(t, decision.delayMs, what, retryAfter);
  }
}

/** The wait before a retry, counted in the command's deadline; a wait past what is left of it ends the command now. */
async function waitToRetry(t: JsonAttemptContext, delayMs: number, what: string, retryAfter: string | undefined): Promise<void> {
  const options = t.options();
  const command = options.commandDeadline;
  if (command && delayMs >= command.remainingMs()) {
    const asked = retryAfter !== undefined ? `the service asked to wait ${Math.round(delayMs / 1000)} s (Retry-After)` : `a retry would wait ${delayMs} ms`;
    throw command.error(what, `before the next attempt: ${asked}`);
  }
  t.log(`retrying in ${delayMs} ms`);
  const endBusy = command?.begin();
  try {
    await sleep(delayMs, options.signal);
  } finally {
    endBusy?.();
  }
}
