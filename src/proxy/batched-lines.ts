/**
 * The access log written in batches: the lines of the answers given in one turn of the event
 * loop go out in one write once the turn's I/O is done. Node writes stderr synchronously when it
 * is a file or a pipe (`2>> access.log`), so a write per line was a system call per cache hit,
 * made before the next client's answer; nginx buffers its access log for the same reason.
 * Lines are never reordered or dropped, and `flush()` writes what is held at once (at close).
 */
import type { Writable } from 'node:stream';

export interface BatchedLines {
  /** Holds `line` (without its newline) for the write at the end of this turn. */
  (line: string): void;
  /** Writes what is held now. */
  flush(): void;
}

export function batchedLines(out: Pick<Writable, 'write'>): BatchedLines {
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
