/**
 * A notice on stderr (what a command is doing, what it skipped, where it put things): wrapped
 * to the terminal as errors are (wrap.ts noticeLines), whole in a pipe. Progress lines
 * redrawn in place are cut instead (wrap.ts progressText).
 */
import type { Writable } from 'node:stream';
import { type StderrShape, type WrapOptions, noticeLines } from './wrap.js';

export interface NoticeTarget extends StderrShape {
  stderr: Pick<Writable, 'write'>;
}

/** Writes `text` (one or more lines) and a newline to stderr, fitted to it. */
export function writeNotice(io: NoticeTarget, text: string, options: WrapOptions = {}): void {
  io.stderr.write(`${noticeLines(text, io, options)}\n`);
}
