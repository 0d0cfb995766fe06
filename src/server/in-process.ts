/**
 * A catalogue answered in-process (--sandbox, --catalogue): the transport is given this
 * dispatcher in place of undici's Agent, and each request runs the catalogue server's own
 * handler (catalogue-handler.ts) with a request and a response that never touch a socket: the
 * answers `serve` sends (but the ETag, which nothing here reads), without the socket, the HTTP
 * parser and undici. It offers undici's `dispatch()`, as the transport sends every request
 * (src/http/body.ts: the body chunk by chunk, with pause and resume).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Writable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { type CatalogueHandler, type CatalogueHandlerOptions, createCatalogueHandler } from './catalogue-handler.js';

/** What the transport passes: undici's request options. */
interface RequestOptions {
  path: string;
  method: string;
  headers?: Record<string, string | string[] | undefined> | null;
}

/** The response given to the handler: a Writable with the few members of ServerResponse it uses. */
interface InProcessResponse extends Writable {
  statusCode: number;
  headersSent: boolean;
  writeHead(status: number, headers?: Record<string, string>): InProcessResponse;
}

/** The request given to the handler: method, target and headers (lower-case names), as node:http parses them. */
function requestFor(options: RequestOptions): IncomingMessage {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(options.headers ?? {})) if (value !== undefined) headers[name.toLowerCase()] = value;
  // The handler reads only these three members of an IncomingMessage.
  return { method: options.method, url: options.path, headers } as unknown as IncomingMessage;
}

export interface InProcessDispatcher {
  dispatch(options: RequestOptions, handler: Dispatcher.DispatchHandler): boolean;
  close(): Promise<void>;
  destroy(): Promise<void>;
}

export function inProcessDispatcher(options: CatalogueHandlerOptions): InProcessDispatcher {
  let handler: Promise<CatalogueHandler> | undefined;
  // No ETags: this client never revalidates (its answers are not cached), so a tag would be made for nothing.
  const loaded = (): Promise<CatalogueHandler> => (handler ??= createCatalogueHandler({ ...options, etags: false }));
  const run = async (options: RequestOptions, res: InProcessResponse): Promise<void> => {
    const handle = await loaded();
    // ServerResponse as far as the handler goes: writeHead, end, destroy, statusCode, headersSent.
    await handle(requestFor(options), res as unknown as ServerResponse);
  };

  return {
    dispatch(options, handler) {
      let paused = false;
      let aborted = false;
      let waiting: (() => void) | undefined;
      const controller = {
        get aborted() {
          return aborted;
        },
        get paused() {
          return paused;
        },
        reason: null as Error | null,
        pause: () => void (paused = true),
        resume: () => {
          paused = false;
          const go = waiting;
          waiting = undefined;
          go?.();
        },
        abort: (reason: Error) => {
          if (aborted) return;
          aborted = true;
          controller.reason = reason;
          res.destroy();
          handler.onResponseError?.(controller, reason);
        },
      };
      // The handler's side of the answer: each chunk written goes to undici's handler, and the next
      // write waits while the handler is paused.
      const res = new Writable({
        write: (chunk: Buffer, _encoding, done) => {
          if (aborted) return done();
          handler.onResponseData?.(controller, chunk);
          if (paused) waiting = () => done();
          else done();
        },
      }) as InProcessResponse;
      res.statusCode = 200;
      res.headersSent = false;
      res.writeHead = (status, headers = {}) => {
        [res.statusCode, res.headersSent] = [status, true];
        const lower = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
        if (!aborted) handler.onResponseStart?.(controller, status, lower, '');
        return res;
      };
      res.on('finish', () => !aborted && handler.onResponseEnd?.(controller, {}));
      res.on('close', () => {
        if (!aborted && !res.writableFinished) controller.abort(new Error('The catalogue stopped answering mid-body.'));
      });
      handler.onRequestStart?.(controller, {});
      if (!aborted) void run(options, res).catch((err: Error) => controller.abort(err));
      return true;
    },

    close: async () => {},
    destroy: async () => {},
  };
}
