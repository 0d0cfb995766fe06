/**
 * The request ledger's file: read, with recovery, and replaced atomically.
 *
 * Each replacement also writes the same data to `<ledger>.prev`, a file of its own: a ledger
 * found corrupt is recovered from that copy, which holds the last count written; the count
 * never drops to 0 behind the user's back.
 *
 * With `durable` (a budget is in force) the new file and its directory are fsynced before the
 * request it counts is sent: a crash right after cannot forget a request that went out. Without
 * a budget the count is a help, and a sync per batch is not worth its milliseconds.
 */
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { LEDGER_FILE_MAX_BYTES } from '../defaults.js';
import { RefusedFileError, readRegularFile } from '../util/safe-open.js';
import { type LedgerData, emptyLedger, parseLedger } from './ledger-data.js';

export type LedgerRead =
  /** `exists`: false when there is no file yet (a new ledger). */
  | { status: 'ok'; data: LedgerData; exists: boolean }
  /** The file is corrupt or gone; `data` is its last good copy. */
  | { status: 'recovered'; data: LedgerData; problem: 'corrupt' | 'missing' }
  /** The file is corrupt and no good copy is left. */
  | { status: 'corrupt' };

export function previousPath(path: string): string {
  return `${path}.prev`;
}

/**
 * The parsed ledger at `path`: undefined when absent; 'corrupt' when not a ledger, which includes
 * a FIFO, a device or an oversized file in its place (opened by the one rule, util/safe-open.ts,
 * so such a file never hangs a command: it is handled as a corrupt ledger is). Other read errors throw.
 */
async function parseFile(path: string): Promise<LedgerData | 'corrupt' | undefined> {
  let text: string;
  try {
    text = (await readRegularFile(path, { maxBytes: LEDGER_FILE_MAX_BYTES })).toString('utf8');
  } catch (err) {
    if (err instanceof RefusedFileError) return 'corrupt';
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  try {
    return parseLedger(JSON.parse(text)) ?? 'corrupt';
  } catch {
    return 'corrupt';
  }
}

/**
 * Reads the ledger; a corrupt one, or one removed while its copy is still there, is recovered
 * from `<ledger>.prev` when that is good. File-system errors throw.
 */
export async function readLedgerFile(path: string): Promise<LedgerRead> {
  const found = await parseFile(path);
  if (found !== undefined && found !== 'corrupt') return { status: 'ok', data: found, exists: true };
  const previous = await parseFile(previousPath(path)).catch(() => undefined);
  const problem = found === undefined ? 'missing' : 'corrupt';
  if (previous && previous !== 'corrupt') return { status: 'recovered', data: previous, problem };
  return found === undefined ? { status: 'ok', data: emptyLedger(), exists: false } : { status: 'corrupt' };
}

/** Moves a corrupt ledger aside (kept for a look), returning where. */
export async function setAside(path: string, now: number): Promise<string> {
  const aside = `${path}.corrupt-${now}`;
  await rename(path, aside);
  return aside;
}

async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r').catch(() => undefined);
  if (!handle) return;
  await handle.sync().catch(() => {}); // not every file system syncs a directory
  await handle.close();
}

/** Replaces `path` with `text` atomically: a private temp file renamed over it. */
async function replaceFile(path: string, text: string, durable: boolean): Promise<void> {
  const temp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    const handle = await open(temp, 'wx', 0o600);
    try {
      await handle.writeFile(text);
      if (durable) await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
}

/**
 * Replaces the ledger with `data`, then its copy `<ledger>.prev` with the same (a file of its
 * own, so damage written into the ledger in place cannot reach it). `durable`: the ledger and
 * its directory are fsynced before this resolves. A copy that cannot be written is no error.
 */
export async function writeLedgerFile(path: string, data: LedgerData, options: { durable: boolean }): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const text = `${JSON.stringify(data)}\n`;
  await replaceFile(path, text, options.durable);
  if (options.durable) await syncDir(dir);
  await replaceFile(previousPath(path), text, false).catch(() => {});
}

export { emptyLedger };
