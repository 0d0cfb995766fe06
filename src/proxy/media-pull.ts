/**
 * Premium media pulled through into the catalogue layout (`<root>/images/<id>/premium/<name>.png`):
 * a file on disk is answered from disk (with Range, server/media.ts); a miss is fetched from the
 * upstream once (concurrent requests for the same file wait for that fill), written to a
 * `.part` file of its own and streamed to the first client at the same time. The file is
 * renamed into place only when its length (through the writer's own handle) and its magic bytes
 * are right; the client's last bytes are sent only then, so a client never gets a
 * complete-looking answer of a file that failed. A client that goes away does not stop the fill: the next one
 * finds the file on disk. Stopped by shutdown, a fill leaves its `.part` behind, never a file
 * under the final name, with a `.part.resume` beside it naming the upstream's validator and
 * length: the next fill of that file takes the part over and asks only for the rest (Range,
 * with If-Range on the validator, so a file changed upstream comes whole and starts over). The
 * note is written only once the part's writer has stopped, so a part still being written (by
 * another proxy sharing the directory) is never taken.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { lstat, mkdir, open, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { basename, dirname, join, sep } from 'node:path';
import { MAGIC_BYTES, MEDIA, type MediaFolder, hasMagic, kindOfFolder } from '../catalogue/media.js';
import { MEDIA_SIZE_CAP_BYTES } from '../defaults.js';
import { BudgetExceededError, NetworkError } from '../errors.js';
import { notFound } from '../server/http-error.js';
import { isSafeComponent, resolveMediaFile, sendMediaFile } from '../server/media.js';
import { type Outcome, type ProxyAnswer, budgetAnswer, errorAnswer, keyRefusedAnswer } from './answers.js';
import { type FillObserver, reportFill } from './metrics.js';
import { type StreamResponse, type Upstream, firstValue } from './upstream.js';

export interface MediaPullOptions {
  /** The catalogue directory media are written into. */
  root: string;
  upstream: Upstream;
  /** Aborted when the proxy stops for good (after its grace period): fills end, leaving their .part. */
  signal: AbortSignal;
  log?: (line: string) => void;
  /** Each upstream request made, for the metrics. */
  observe?: FillObserver;
}

/** The name of a fill's `.part` (see fill()): the final name, 12 hex digits of its own, `.part`; and of its resume note. */
const PART_NAME = /\.[0-9a-f]{12}\.part(\.resume)?$/;
const RESUME_SUFFIX = '.resume';

/** What a `.part` left by a shutdown needs to be resumed: the upstream's validator of the file (for If-Range) and its whole length. */
interface ResumeNote {
  validator: string;
  length: number;
}

/** A part taken over for resuming: its new name and the bytes it holds. */
interface ClaimedPart extends ResumeNote {
  path: string;
  size: number;
}
/**
 * A `.part` untouched this long is left by a fill that ended (a shutdown, a crash): a fill
 * writes as bytes come, and the upstream's deadline ends a fill long before this.
 */
export const STALE_PART_MS = 24 * 60 * 60 * 1000;

/** How a fill ended: the file is in place (streamed to the client given, or not), or the answer to give instead. */
type FillResult = { ok: true; streamed: boolean } | { ok: false; answer: ProxyAnswer };

/** What the media request asks for. */
export interface MediaRequest {
  folder: MediaFolder;
  id: string;
  fileName: string;
  /** The path as the client sent it (under the upstream's base URL too). */
  target: string;
}

/** Where a media file of the catalogue layout goes, or undefined when the request cannot name one. */
function destination(root: string, request: MediaRequest): string | undefined {
  const { extension } = MEDIA[kindOfFolder(request.folder)];
  if (!request.fileName.endsWith(extension)) return undefined;
  const name = request.fileName.slice(0, -extension.length);
  if (!isSafeComponent(request.id) || !isSafeComponent(name)) return undefined;
  const path = join(root, request.folder, request.id, 'premium', name + extension);
  return path.startsWith(root + sep) ? path : undefined;
}

/** A new name for a part of `dest`: a name of its own, so two proxies over one shared directory never write into each other's file. */
function partName(dest: string): string {
  return `${dest}.${randomBytes(6).toString('hex')}.part`;
}

/** The validator If-Range may carry: a strong ETag, else the Last-Modified date (RFC 9110 13.1.5); none: the part cannot be resumed. */
function validatorOf(res: StreamResponse): string | undefined {
  const etag = firstValue(res.headers.etag);
  if (etag !== undefined && etag.startsWith('"')) return etag;
  return firstValue(res.headers['last-modified']);
}

function readNote(text: string): ResumeNote | undefined {
  try {
    const note = JSON.parse(text) as Partial<ResumeNote>;
    if (typeof note.validator === 'string' && /^[\x20-\x7e]{1,1024}$/.test(note.validator) && Number.isSafeInteger(note.length) && note.length! > 0) {
      return { validator: note.validator, length: note.length! };
    }
  } catch {
    // not a note of ours
  }
  return undefined;
}

/** The offset a 206 continues `part` from, when its Content-Range is the rest of the same file; else undefined. */
function continuesAt(res: StreamResponse, part: ClaimedPart): number | undefined {
  const m = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(firstValue(res.headers['content-range']) ?? '');
  if (!m || Number(m[1]) !== part.size || Number(m[2]) !== part.length - 1 || Number(m[3]) !== part.length) return undefined;
  return part.size;
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

  /**
   * Removes the `.part` files of ours (by their name) that no fill has written for a day, so
   * those left by shutdowns do not pile up; called at start, before any fill of this process.
   * Anything else in the directory, and any part that may still be written (by another proxy
   * sharing the directory), is left alone. Problems are logged, never fatal.
   */
  async removeStaleParts(now = Date.now()): Promise<number> {
    let removed = 0;
    for (const { folder } of Object.values(MEDIA)) {
      for (const dir of await subdirectories(join(this.options.root, folder))) {
        const premium = join(dir, 'premium');
        for (const name of await fileNames(premium)) {
          if (!PART_NAME.test(name)) continue;
          const path = join(premium, name);
          try {
            const info = await lstat(path);
            if (!info.isFile() || now - info.mtimeMs < STALE_PART_MS) continue;
            await rm(path, { force: true });
            removed += 1;
          } catch (err) {
            this.options.log?.(`media: cannot remove the stale ${path}: ${(err as Error).message}`);
          }
        }
      }
    }
    if (removed > 0) this.options.log?.(`media: removed ${removed} stale .part file(s) left by earlier fills.`);
    return removed;
  }

  /** Answers `req` for the media file; resolves to the outcome, or to the error answer still to send. */
  async serve(req: IncomingMessage, res: ServerResponse, request: MediaRequest): Promise<Outcome | ProxyAnswer> {
    const { root } = this.options;
    const onDisk = await resolveMediaFile(root, request.folder, request.id, request.fileName);
    if (onDisk) {
      await sendMediaFile(req, res, onDisk, request.folder);
      return 'hit';
    }
    const dest = destination(root, request);
    if (!dest) throw notFound('No such media file.');

    const running = this.fills.get(dest);
    // A fill may have finished since the disk was looked at: checked again, synchronously, so no second fill starts.
    if (!running && existsSync(dest)) {
      const file = await resolveMediaFile(root, request.folder, request.id, request.fileName);
      if (!file) throw notFound('No such media file.');
      await sendMediaFile(req, res, file, request.folder);
      return 'hit';
    }
    // The first GET of the whole file is streamed as it arrives; anyone else (Range, HEAD, later) gets it from disk.
    const streamTo = !running && req.method === 'GET' && req.headers.range === undefined ? res : undefined;
    const fill = running ?? this.fill(dest, request, streamTo).finally(() => this.fills.delete(dest));
    if (!running) this.fills.set(dest, fill);
    const result = await fill;
    if (!result.ok) {
      if (streamTo?.headersSent) streamTo.destroy();
      return result.answer;
    }
    if (streamTo && result.streamed) return 'miss';
    const file = await resolveMediaFile(root, request.folder, request.id, request.fileName);
    if (!file) throw notFound('No such media file.');
    await sendMediaFile(req, res, file, request.folder);
    return running ? 'coalesced' : 'miss';
  }

  /**
   * The newest part of `dest` that a stopped fill left with a resume note, renamed to a name of
   * this fill's (whoever renames it first has it); undefined when there is none to take.
   */
  private async claimPart(dest: string): Promise<ClaimedPart | undefined> {
    const prefix = `${basename(dest)}.`;
    const dir = dirname(dest);
    const notes = (await fileNames(dir)).filter((name) => name.startsWith(prefix) && name.endsWith(RESUME_SUFFIX) && PART_NAME.test(name));
    for (const name of notes) {
      const notePath = join(dir, name);
      const left = notePath.slice(0, -RESUME_SUFFIX.length);
      const note = readNote(await readFile(notePath, 'utf8').catch(() => ''));
      const path = partName(dest);
      try {
        await rename(left, path);
      } catch {
        await rm(notePath, { force: true });
        continue; // taken by another fill, or gone
      }
      await rm(notePath, { force: true });
      const size = (await lstat(path).catch(() => undefined))?.size ?? 0;
      // Too short to hold the magic bytes, or already whole (it would have been renamed): not worth a Range.
      if (note && size >= MAGIC_BYTES && size < note.length) return { ...note, path, size };
      await rm(path, { force: true });
    }
    return undefined;
  }

  /**
   * Fetches the file from the upstream into place, streaming it to `client` when given (not when
   * a part left by a shutdown is resumed: its first bytes come from disk, so the client waits).
   */
  private async fill(dest: string, request: MediaRequest, client: ServerResponse | undefined): Promise<FillResult> {
    const { upstream, signal } = this.options;
    const kind = kindOfFolder(request.folder);
    const resumed = await this.claimPart(dest);
    const began = performance.now();
    const discard = async (): Promise<void> => {
      if (resumed) await rm(resumed.path, { force: true });
    };
    let res: StreamResponse;
    try {
      const headers: Record<string, string> = resumed ? { range: `bytes=${resumed.size}-`, 'if-range': resumed.validator } : {};
      res = await upstream.stream(request.target, { signal, headers });
    } catch (err) {
      reportFill(this.options.observe, 'media', began, err);
      // Stopped by shutdown before a byte came: the part is still worth resuming.
      if (resumed && signal.aborted) await this.leaveForResume(resumed.path, resumed);
      else await discard();
      return { ok: false, answer: failure(err) };
    }
    if (res.status === 401) upstream.keyRefused(res.status);
    const from = resumed && res.status === 206 ? continuesAt(res, resumed) : undefined;
    if (res.status !== 200 && from === undefined) {
      reportFill(this.options.observe, 'media', began, res.status);
      await discard();
      return { ok: false, answer: refused(res) };
    }
    const length = from !== undefined ? resumed!.length : Number(firstValue(res.headers['content-length']));
    const cap = MEDIA_SIZE_CAP_BYTES[kind];
    const announced = from !== undefined ? Number(firstValue(res.headers['content-length'])) === length - from : true;
    if (!Number.isSafeInteger(length) || length <= 0 || length > cap || !announced) {
      reportFill(this.options.observe, 'media', began, res.status);
      res.body.on('error', () => {}).destroy();
      await discard();
      const why = Number.isSafeInteger(length) && length > cap ? `announced ${length} bytes, over the cap of ${cap}` : 'sent no usable Content-Length';
      return { ok: false, answer: errorAnswer(502, 'bad_gateway', `The upstream service ${why} for this file; nothing was stored.`) };
    }
    // A 200 to a resuming request: the file changed upstream (If-Range failed), so it starts over in a part of its own.
    if (resumed && from === undefined) await discard();
    await mkdir(dirname(dest), { recursive: true });
    const part = from !== undefined ? resumed!.path : partName(dest);
    const handle = from !== undefined ? await open(part, 'r+') : await open(part, 'wx', 0o644);
    const validator = from !== undefined ? resumed!.validator : validatorOf(res);
    let attached = from === undefined ? client : undefined;
    const detach = (): void => {
      attached = undefined;
    };
    attached?.once('close', detach);
    if (attached) {
      attached.writeHead(200, {
        'content-type': MEDIA[kind].contentType,
        'content-length': String(length),
        'accept-ranges': 'bytes',
        'cache-control': 'private, max-age=3600',
      });
    }
    const streamed = attached !== undefined;
    let written = from ?? 0;
    const head: Buffer[] = [];
    let headBytes = 0;
    if (from !== undefined) {
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
      reportFill(this.options.observe, 'media', began, err);
      await handle.close().catch(() => {});
      attached?.off('close', detach);
      // Stopped by shutdown: the .part stays, to be resumed when its validator allows; otherwise it is of no use to anyone.
      if (!signal.aborted) await rm(part, { force: true });
      else if (validator !== undefined) await this.leaveForResume(part, { validator, length });
      this.options.log?.(`media: fill of ${request.target} failed: ${upstream.redact((err as Error).message)}`);
      return { ok: false, answer: errorAnswer(502, 'bad_gateway', 'The upstream service sent an incomplete or malformed file; nothing was stored.') };
    }
    reportFill(this.options.observe, 'media', began, res.status);
    attached?.off('close', detach);
    if (attached && !attached.destroyed) attached.end(held);
    return { ok: true, streamed };
  }

  /** Writes the resume note of a part whose writer has stopped (its handle closed): from now on another fill may take it. */
  private async leaveForResume(part: string, note: ResumeNote): Promise<void> {
    try {
      await writeFile(part + RESUME_SUFFIX, JSON.stringify(note), { mode: 0o644 });
    } catch (err) {
      this.options.log?.(`media: cannot note ${part} for resuming: ${(err as Error).message}`);
    }
  }
}

/** The directories in `dir` (symbolic links not followed); none when it cannot be read. */
async function subdirectories(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isDirectory()).map((e) => join(dir, e.name));
}

/** The names of the regular files in `dir`; none when it cannot be read. */
async function fileNames(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => e.name);
}

/** The upstream could not be asked, or did not answer. */
function failure(err: unknown): ProxyAnswer {
  if (err instanceof BudgetExceededError) return budgetAnswer(err);
  if (err instanceof NetworkError && err.code === 'timeout') return errorAnswer(504, 'gateway_timeout', 'The upstream service did not answer in time.');
  if (err instanceof NetworkError) return errorAnswer(502, 'bad_gateway', 'The upstream service cannot be reached, and the file is not stored yet.');
  throw err;
}

/** A status other than 200: 403 and 404 are passed on (a free upstream plan, no such file); 401 is the proxy's key refused; anything else is the upstream failing. */
function refused(res: StreamResponse): ProxyAnswer {
  res.body.on('error', () => {}).resume();
  if (res.status === 401) return keyRefusedAnswer(res.status);
  if (res.status === 404) return errorAnswer(404, 'not_found', 'No such media file.');
  if (res.status === 403)
    return errorAnswer(403, 'forbidden', "Premium images and videos need a premium plan; the proxy's upstream plan does not include them.");
  if (res.status === 429) return errorAnswer(429, 'upstream_rate_limited', 'The upstream service is rate limiting the proxy; try again later.');
  return errorAnswer(502, 'bad_gateway', `The upstream service failed (${res.status}) on this file.`);
}
