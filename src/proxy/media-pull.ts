/**
 * Premium media pulled through into the catalogue layout (`<root>/images/<id>/premium/<name>.png`):
 * a file on disk is answered from disk (with Range, server/media.ts); a miss is fetched from the
 * upstream once (concurrent requests for the same file wait for that fill), written to a
 * `.part` of its own (media-parts.ts) and streamed to the first client at the same time. The
 * file is renamed into place only when its length (through the writer's own handle) and its
 * magic bytes are right; the client's last bytes are sent only then, so a client never gets a
 * complete-looking answer of a file that failed. A client that goes away does not stop the
 * fill: the next one finds the file on disk. A fill stopped by shutdown leaves its part to be
 * resumed by the next fill of that file (Range, with If-Range on the upstream's validator, so a
 * file changed upstream comes whole and starts over). With shared state a fill takes the replicas'
 * lock (shared-fill.ts): a replica waits for another's fill of the file, then serves it from disk
 * when a shared volume has it there, else fetches it once itself.
 */
import { existsSync } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname } from 'node:path';
import { MAGIC_BYTES, MEDIA, type MediaFolder, hasMagic, kindOfFolder } from '../catalogue/media.js';
import { MEDIA_SIZE_CAP_BYTES } from '../defaults.js';
import { firstValue, notFound } from '../server/http-error.js';
import { mediaPath, resolveMediaFile, sendMediaFile } from '../server/media.js';
import { type Outcome, type ProxyAnswer, errorAnswer, keyRefusedAnswer, rateLimitedAnswer, unreachableAnswer } from './answers.js';
import { claimPart, continues, leaveForResume, partName, validatorOf } from './media-parts.js';
import type { FillObserver } from './metrics.js';
import type { StreamResponse, Upstream } from './upstream.js';
import type { SharedFill } from './shared-fill.js';

export interface MediaPullOptions {
  /** The catalogue directory media are written into. */
  root: string;
  upstream: Upstream;
  /** Aborted when the proxy stops for good (after its grace period): fills end, leaving their .part. */
  signal: AbortSignal;
  log?: (line: string) => void;
  /** Each upstream request made, for the metrics. */
  observe: FillObserver;
  /** Replicas sharing a Redis: one fill of a file at a time across them. */
  shared?: SharedFill | undefined;
}

/** How a fill ended: the file is in place (streamed to the client given, or not), or the answer to give instead. */
type FillResult = { ok: true; streamed: boolean; byReplica?: boolean } | { ok: false; answer: ProxyAnswer };

/** What the media request asks for. */
export interface MediaRequest {
  folder: MediaFolder;
  id: string;
  fileName: string;
  /** The path as the client sent it (under the upstream's base URL too). */
  target: string;
}

/** Resolves when the response can take more, or has gone. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

export class MediaPull {
  private readonly fills = new Map<string, Promise<FillResult>>();

  constructor(private readonly options: MediaPullOptions) {}

  /** Sends the file from disk (with Range); false when it is not there. */
  private async fromDisk(req: IncomingMessage, res: ServerResponse, request: MediaRequest): Promise<boolean> {
    const file = await resolveMediaFile(this.options.root, request.folder, request.id, request.fileName);
    if (file) await sendMediaFile(req, res, file, request.folder);
    return Boolean(file);
  }

  /** Answers `req` for the media file; resolves to the outcome, or to the error answer still to send. */
  async serve(req: IncomingMessage, res: ServerResponse, request: MediaRequest): Promise<Outcome | ProxyAnswer> {
    if (await this.fromDisk(req, res, request)) return 'hit';
    const dest = mediaPath(this.options.root, request.folder, request.id, request.fileName);
    if (!dest) throw notFound('No such media file.');

    const running = this.fills.get(dest);
    // A fill may have finished since the disk was looked at: checked again, synchronously, so no second fill starts.
    if (!running && existsSync(dest)) {
      if (!(await this.fromDisk(req, res, request))) throw notFound('No such media file.');
      return 'hit';
    }
    // The first GET of the whole file is streamed as it arrives; anyone else (Range, HEAD, later) gets it from disk.
    const streamTo = !running && req.method === 'GET' && req.headers.range === undefined ? res : undefined;
    const fill = running ?? this.fillOnce(dest, request, streamTo).finally(() => this.fills.delete(dest));
    if (!running) this.fills.set(dest, fill);
    const result = await fill;
    if (!result.ok) {
      if (streamTo?.headersSent) streamTo.destroy();
      return result.answer;
    }
    if (streamTo && result.streamed) return 'miss';
    if (!(await this.fromDisk(req, res, request))) throw notFound('No such media file.');
    return running || result.byReplica ? 'coalesced' : 'miss';
  }

  /** The fill, under the replicas' lock with shared state: a file another replica put on a shared volume meanwhile is taken as it is. */
  private fillOnce(dest: string, request: MediaRequest, client: ServerResponse | undefined): Promise<FillResult> {
    const { shared, upstream } = this.options;
    if (!shared) return this.fill(dest, request, client);
    const found = async (): Promise<FillResult | undefined> => (existsSync(dest) ? { ok: true, streamed: false, byReplica: true } : undefined);
    return shared
      .once(`media ${upstream.baseUrl} ${request.target}`, found, () => this.fill(dest, request, client))
      .catch((err: unknown) => ({ ok: false, answer: unreachableAnswer(err, ', and the file is not stored yet') }));
  }

  /**
   * Fetches the file from the upstream into place, streaming it to `client` when given (not when
   * a part left by a shutdown is resumed: its first bytes come from disk, so the client waits).
   */
  private async fill(dest: string, request: MediaRequest, client: ServerResponse | undefined): Promise<FillResult> {
    const { upstream, signal } = this.options;
    const kind = kindOfFolder(request.folder);
    const resumed = await claimPart(dest);
    const began = performance.now();
    const discard = (): Promise<void> => (resumed ? rm(resumed.path, { force: true }) : Promise.resolve());
    let res: StreamResponse;
    try {
      const headers: Record<string, string> = resumed ? { range: `bytes=${resumed.size}-`, 'if-range': resumed.validator } : {};
      res = await upstream.stream(request.target, { signal, headers });
    } catch (err) {
      this.options.observe('media', began, err);
      // Stopped by shutdown before a byte came: the part is still worth resuming.
      if (resumed && signal.aborted) await leaveForResume(resumed.path, resumed, this.options.log);
      else await discard();
      return { ok: false, answer: unreachableAnswer(err, ', and the file is not stored yet') };
    }
    if (res.status === 401) upstream.keyRefused(res.status);
    // The part claimed, when the 206 continues it; a 200 to a resuming request: the file changed upstream (If-Range failed).
    const going = resumed && res.status === 206 && continues(res, resumed) ? resumed : undefined;
    if (res.status !== 200 && !going) {
      this.options.observe('media', began, res.status);
      await discard();
      return { ok: false, answer: refused(res) };
    }
    const announced = Number(firstValue(res.headers['content-length']));
    const length = going ? going.length : announced;
    const cap = MEDIA_SIZE_CAP_BYTES[kind];
    if (!Number.isSafeInteger(length) || length <= 0 || length > cap || (going && announced !== length - going.size)) {
      this.options.observe('media', began, res.status);
      res.body.on('error', () => {}).destroy();
      await discard();
      const why = Number.isSafeInteger(length) && length > cap ? `announced ${length} bytes, over the cap of ${cap}` : 'sent no usable Content-Length';
      return { ok: false, answer: errorAnswer(502, 'bad_gateway', `The upstream service ${why} for this file; nothing was stored.`) };
    }
    // A file changed upstream starts over in a part of its own.
    if (resumed && !going) await discard();
    await mkdir(dirname(dest), { recursive: true });
    const part = going ? going.path : partName(dest);
    const handle = going ? await open(part, 'r+') : await open(part, 'wx', 0o644);
    const validator = going ? going.validator : validatorOf(res);
    let attached = going ? undefined : client;
    const detach = (): void => void (attached = undefined);
    attached?.once('close', detach);
    attached?.writeHead(200, {
      'content-type': MEDIA[kind].contentType,
      'content-length': String(length),
      'accept-ranges': 'bytes',
      'cache-control': 'private, max-age=3600',
    });
    const streamed = attached !== undefined;
    let written = going?.size ?? 0;
    const head: Buffer[] = [];
    let headBytes = 0;
    if (going) {
      const first = Buffer.alloc(MAGIC_BYTES);
      headBytes = (await handle.read(first, 0, MAGIC_BYTES, 0)).bytesRead;
      head.push(first.subarray(0, headBytes));
    }
    let held: Buffer | undefined;
    try {
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        if (written + chunk.length > length) throw new Error(`more than the ${length} bytes announced`);
        if (headBytes < MAGIC_BYTES) {
          head.push(chunk.subarray(0, MAGIC_BYTES - headBytes));
          headBytes += Math.min(chunk.length, MAGIC_BYTES - headBytes);
        }
        await handle.write(chunk, 0, chunk.length, written);
        written += chunk.length;
        // The client gets each chunk once the next has come: the last one only after the file is verified and in place,
        // since a client takes an answer as complete when Content-Length bytes have arrived.
        const previous = held;
        held = chunk;
        // Paced by the client while it stays; at full speed once it has gone.
        if (previous && attached && !attached.destroyed && !attached.write(previous)) await drained(attached);
      }
      const size = (await handle.stat()).size;
      if (written !== length || size !== length) throw new Error(`${size} of the ${length} bytes announced arrived`);
      if (!hasMagic(kind, Buffer.concat(head))) throw new Error(`the bytes are not ${MEDIA[kind].description}`);
      await handle.close();
      await rename(part, dest);
    } catch (err) {
      this.options.observe('media', began, err);
      await handle.close().catch(() => {});
      attached?.off('close', detach);
      // Stopped by shutdown: the .part stays, to be resumed when its validator allows; otherwise it is of no use to anyone.
      if (!signal.aborted) await rm(part, { force: true });
      else if (validator !== undefined) await leaveForResume(part, { validator, length }, this.options.log);
      this.options.log?.(`media: fill of ${request.target} failed: ${upstream.redact((err as Error).message)}`);
      return { ok: false, answer: errorAnswer(502, 'bad_gateway', 'The upstream service sent an incomplete or malformed file; nothing was stored.') };
    }
    this.options.observe('media', began, res.status);
    attached?.off('close', detach);
    if (attached && !attached.destroyed) attached.end(held);
    return { ok: true, streamed };
  }
}

/** A status other than 200: 403 and 404 are passed on (a free upstream plan, no such file); 401 is the proxy's key refused; anything else is the upstream failing. */
function refused(res: StreamResponse): ProxyAnswer {
  res.body.on('error', () => {}).resume();
  if (res.status === 401) return keyRefusedAnswer(res.status);
  if (res.status === 404) return errorAnswer(404, 'not_found', 'No such media file.');
  if (res.status === 403)
    return errorAnswer(403, 'forbidden', "Premium images and videos need a premium plan; the proxy's upstream plan does not include them.");
  if (res.status === 429) return rateLimitedAnswer();
  return errorAnswer(502, 'bad_gateway', `The upstream service failed (${res.status}) on this file.`);
}
