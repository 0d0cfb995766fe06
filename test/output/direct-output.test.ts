/**
 * Standard output written without its stream (src/output/streams.ts): into a file (as into
 * a pipe) the bytes go out at once, in order and in full; a reader gone (EPIPE) ends the run
 * quietly; a descriptor that would block (EAGAIN) hands the rest to the real stream; and
 * anything but write() creates the real stream, which then takes every write.
 */
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { directOutput, outputCalls, writableDirectly } from '../../src/output/streams.js';
import { tempDir } from '../helpers/temp.js';

const opened: number[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const fd of opened.splice(0)) closeSync(fd);
});

function tempFile(): { fd: number; path: string } {
  const path = join(tempDir('exercises-direct-'), 'out.txt');
  const fd = openSync(path, 'w');
  opened.push(fd);
  return { fd, path };
}

/** A stand-in for process.stdout that keeps what it is given. */
function fakeStream(): Writable & { text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      chunks.push(chunk);
      done();
    },
  });
  return Object.assign(stream, { text: () => Buffer.concat(chunks).toString('utf8') });
}

function errno(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(code), { code });
}

describe('writableDirectly', () => {
  it('is true for a regular file and /dev/null, false for another character device and for a closed descriptor', () => {
    const { fd } = tempFile();
    expect(writableDirectly(fd)).toBe(true);
    const nullFd = openSync('/dev/null', 'w');
    opened.push(nullFd);
    expect(writableDirectly(nullFd)).toBe(true);
    // /dev/zero is a character device too, but not /dev/null: only node:tty could say it is no terminal.
    const zeroFd = openSync('/dev/zero', 'r');
    opened.push(zeroFd);
    expect(writableDirectly(zeroFd)).toBe(false);
    expect(writableDirectly(987654)).toBe(false);
  });
});

describe('directOutput', () => {
  it('writes strings and bytes at once, in order, and never creates the stream for write() alone', async () => {
    const { fd, path } = tempFile();
    const openStream = vi.fn(fakeStream);
    const out = directOutput(fd, openStream, () => {});
    expect(out.write('héllo ')).toBe(true);
    expect(out.write(Buffer.from('wörld\n'))).toBe(true);
    await new Promise<void>((resolve) => out.write('done\n', () => resolve()));
    expect(readFileSync(path, 'utf8')).toBe('héllo wörld\ndone\n');
    expect(openStream).not.toHaveBeenCalled();
  });

  it('a reader gone (EPIPE) runs onBrokenPipe and writes nothing more there', () => {
    const { fd } = tempFile();
    vi.spyOn(outputCalls, 'writeSync').mockImplementation(() => {
      throw errno('EPIPE');
    });
    const onBrokenPipe = vi.fn();
    const openStream = vi.fn(fakeStream);
    const out = directOutput(fd, openStream, onBrokenPipe);
    expect(out.write('lost\n')).toBe(false);
    expect(onBrokenPipe).toHaveBeenCalledOnce();
    expect(openStream).not.toHaveBeenCalled();
  });

  it('a descriptor that would block (EAGAIN) hands exactly the unwritten rest to the real stream', () => {
    const { fd, path } = tempFile();
    let calls = 0;
    const real = outputCalls.writeSync;
    vi.spyOn(outputCalls, 'writeSync').mockImplementation(((f: number, bytes: Uint8Array, offset: number) => {
      calls += 1;
      // The first call writes four bytes, the next would block.
      if (calls === 1) return real(f, bytes, offset, 4);
      throw errno('EAGAIN');
    }) as typeof outputCalls.writeSync);
    const stream = fakeStream();
    const out = directOutput(
      fd,
      () => stream,
      () => {},
    );
    out.write('abcdefgh');
    out.write('ij');
    expect(readFileSync(path, 'utf8')).toBe('abcd');
    expect(stream.text()).toBe('efghij');
  });

  it('any other write error reaches the caller', () => {
    const { fd } = tempFile();
    vi.spyOn(outputCalls, 'writeSync').mockImplementation(() => {
      throw errno('ENOSPC');
    });
    const out = directOutput(fd, fakeStream, () => {});
    expect(() => out.write('x')).toThrow('ENOSPC');
  });

  it('anything but write() creates the real stream once, bound to it, and later writes follow the earlier ones', () => {
    const { fd, path } = tempFile();
    const stream = fakeStream();
    const openStream = vi.fn(() => stream);
    const out = directOutput(fd, openStream, () => {});
    out.write('first\n');
    const onError = vi.fn();
    out.on('error', onError);
    stream.emit('error', new Error('boom'));
    expect(onError).toHaveBeenCalledOnce();
    expect(out instanceof Writable).toBe(true);
    expect('write' in out).toBe(true);
    out.write('second\n');
    expect(openStream).toHaveBeenCalledOnce();
    expect(readFileSync(path, 'utf8')).toBe('first\n');
    expect(stream.text()).toBe('second\n');
  });
});
