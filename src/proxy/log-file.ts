/**
 * The access log's file (`serve --access-log`): lines appended to a file created readable by its
 * owner and group only, and opened again at its path on reopen() (SIGUSR1), as nginx does, so
 * logrotate may move it away and the next lines go to a new file.
 */
import { closeSync, openSync } from 'node:fs';
import { UsageError } from '../errors.js';
import { reasonOf, writeAllSync } from '../util/write-all.js';

/** A new log file's mode: the group (adm, as Debian's logs) may read it, others not. */
const LOG_FILE_MODE = 0o640;

export class LogFile {
  private fd: number;
  /** Whether the last write failed: said once, not once per line, until a write works again. */
  private failing = false;

  /** Opens `path` for appending; a UsageError (exit 2) when it cannot be. */
  constructor(
    readonly path: string,
    private readonly warn: (line: string) => void,
  ) {
    try {
      this.fd = openSync(path, 'a', LOG_FILE_MODE);
    } catch (err) {
      throw new UsageError(`--access-log ${path} cannot be opened: ${reasonOf(err)}.`);
    }
  }

  write(text: string): void {
    try {
      writeAllSync(this.fd, text, this.path);
      this.failing = false;
    } catch (err) {
      if (!this.failing) this.warn(`proxy: access log lines lost: ${(err as Error).message}`);
      this.failing = true;
    }
  }

  /** The file at the path from now on (a new one when it was moved), and true; when it cannot be opened, the one in use stays, and why is said. */
  reopen(): boolean {
    let next: number;
    try {
      next = openSync(this.path, 'a', LOG_FILE_MODE);
    } catch (err) {
      this.warn(`proxy: --access-log ${this.path} cannot be reopened: ${reasonOf(err)}; writing on to the file already open.`);
      return false;
    }
    closeSync(this.fd);
    this.fd = next;
    return true;
  }

  close(): void {
    closeSync(this.fd);
  }
}
