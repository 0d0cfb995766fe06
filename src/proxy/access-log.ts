/**
 * One access log line per request, in the format the operator chose (`serve --log-format`):
 * `text`, fields split by spaces and led by an ISO 8601 UTC time so a line read months later
 * still says when; or `json`, one object a line for a log shipper. Both carry the same fields.
 * The client is its label or its key's short hash (client-keys.ts), never a key; in the path a
 * segment or query value that is a key (a client's, or the upstream's) is written `***` (maskedTarget):
 * clients that put their key in `?api_key=…` are not rare, and an access log is read, shipped
 * and kept by more people than the keys file.
 *
 * The log is written in batches (batchedLines): the lines of the answers given in one turn of
 * the event loop go out in one write once the turn's I/O is done. Node writes stderr
 * synchronously when it is a file or a pipe (`2>> access.log`), so a write per line would be a
 * system call per cache hit, made before the next client's answer; nginx buffers its access log
 * for the same reason. Lines are never reordered or dropped, and `flush()` writes what is held at once (at close).
 */
import { REDACTED } from '../util/text.js';
import type { Outcome } from './answers.js';
import { urlPartForms } from './key-scrub.js';

export const LOG_FORMATS = ['text', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];
export const DEFAULT_LOG_FORMAT: LogFormat = 'text';

/** What the proxy did for one request; `status` undefined when the client left before its whole answer. */
export interface AccessRecord {
  /** ISO 8601 UTC, to the millisecond (isoNow). */
  time: string;
  /** The client's label or key hash (client-keys.ts clientName); `-` without a valid key. */
  client: string;
  method: string;
  path: string;
  status: number | undefined;
  /** How it was answered; undefined for errors and answers not delivered. */
  outcome: Outcome | undefined;
  ms: number;
  bytes: number;
}

let isoMs = NaN;
let isoText = '';

/** The time `now` as ISO 8601 UTC: made once per millisecond, as a busy proxy logs several answers in each. */
export function isoNow(now = Date.now()): string {
  if (now !== isoMs) [isoMs, isoText] = [now, new Date(now).toISOString()];
  return isoText;
}

export function formatAccess(record: AccessRecord, format: LogFormat): string {
  const ms = Math.round(record.ms * 10) / 10;
  if (format === 'json') {
    const { client, method, path, status, outcome, bytes } = record;
    return JSON.stringify({ time: record.time, client, method, path, status: status ?? null, outcome: outcome ?? null, ms, bytes });
  }
  const status = record.status ?? '-';
  // A label may hold spaces (client-keys.ts refuses quotes and backslashes): quoted then, so the text line still splits on spaces.
  const client = record.client.includes(' ') ? `"${record.client}"` : record.client;
  return `${record.time} ${client} ${record.method} ${record.path} ${status} ${record.outcome ?? '-'} ${ms.toFixed(1)}ms ${record.bytes}B`;
}

/** `target` with every path segment and query value for which `isKey` holds (as sent or percent-decoded) replaced by `***`. */
export function maskedTarget(target: string, isKey: (value: string) => boolean): string {
  const mask = (part: string): string => (urlPartForms(part).some(isKey) ? REDACTED : part);
  const q = target.indexOf('?');
  const path = (q === -1 ? target : target.slice(0, q)).split('/').map(mask).join('/');
  if (q === -1) return path;
  const pairs = target
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      return eq === -1 ? pair : `${pair.slice(0, eq + 1)}${mask(pair.slice(eq + 1))}`;
    });
  return `${path}?${pairs.join('&')}`;
}

export interface BatchedLines {
  /** Holds `line` (without its newline) for the write at the end of this turn. */
  (line: string): void;
  /** Writes what is held now. */
  flush(): void;
}

export function batchedLines(out: { write(text: string): unknown }): BatchedLines {
  let held: string[] = [];
  let scheduled: NodeJS.Immediate | undefined;
  const flush = (): void => {
    if (scheduled) clearImmediate(scheduled);
    scheduled = undefined;
    if (held.length === 0) return;
    const text = `${held.join('\n')}\n`;
    held = [];
    out.write(text);
  };
  const write = (line: string): void => {
    held.push(line);
    // setImmediate runs after the poll phase: every answer this turn's I/O brought is written first.
    scheduled ??= setImmediate(flush);
  };
  return Object.assign(write, { flush });
}
