/**
 * A failed write on stdout (issue 28: `> /dev/full` exited 1 with "Unexpected error: ENOSPC …
 * please report it") is an error naming stdout, exit 6, with no "please report"; a reader
 * gone (EPIPE) stays the broken-pipe handling's business.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { namedWriteErrors } from '../../src/output/streams.js';
import { WriteFailedError } from '../../src/errors.js';
import { CLI_PATH, testEnv } from '../helpers/run-cli.js';

const errno = (code: string) => Object.assign(new Error(`${code}: failed, write`), { code, syscall: 'write' });

describe('namedWriteErrors', () => {
  it('turns a write that throws ENOSPC or EIO into WriteFailedError naming the stream', () => {
    for (const code of ['ENOSPC', 'EIO']) {
      const out = namedWriteErrors(
        new Writable({
          write: () => {
            throw errno(code);
          },
        }),
        'stdout',
      );
      let caught: unknown;
      try {
        out.write('x');
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(WriteFailedError);
      expect((caught as WriteFailedError).message).toMatch(new RegExp(`^Cannot write stdout: .*\\(${code}\\)\\.$`));
      expect((caught as WriteFailedError).exitCode).toBe(6);
    }
  });

  it('lets EPIPE and a stream that only asks to wait through', () => {
    const slow = namedWriteErrors(new Writable({ highWaterMark: 1, write: (_c, _e, done) => setTimeout(done, 1) }), 'stdout');
    expect(slow.write('xx')).toBe(false);
    const piped = namedWriteErrors(
      new Writable({
        write: () => {
          throw errno('EPIPE');
        },
      }),
      'stdout',
    );
    expect(() => piped.write('x')).toThrow(/EPIPE/);
  });
});

describe.skipIf(!existsSync('/dev/full'))('> /dev/full', () => {
  it.each([[['--sandbox', 'show', 'Push_Up']], [['--sandbox', 'ids', '--all']]])('%o exits 6 naming stdout, no "please report"', (args) => {
    const full = openSync('/dev/full', 'w');
    try {
      const r = spawnSync(process.execPath, [CLI_PATH, ...args], { stdio: ['ignore', full, 'pipe'], env: testEnv(), encoding: 'utf8', timeout: 20_000 });
      expect(r.status, r.stderr).toBe(6);
      expect(r.stderr).toMatch(/^Error: Cannot write stdout: no space left on device \(ENOSPC\)\.$/m);
      expect(r.stderr).not.toMatch(/please report|Unexpected/);
    } finally {
      closeSync(full);
    }
  });
});
