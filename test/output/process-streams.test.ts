/**
 * The built CLI's own stdout and stderr (src/output/streams.ts processStreams): a fault on
 * stderr (a full disk behind `2>`) leaves the command's exit code as it was, and a stdout that
 * another program left non-blocking and full (EAGAIN) still gets every byte, in order.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, constants, createReadStream, existsSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_PATH, runCli, testEnv } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp.js';

const HAVE_MKFIFO = spawnSync('mkfifo', ['--version'], { stdio: 'ignore' }).status === 0;

/** The built CLI with stderr written to /dev/full (every write fails with ENOSPC). */
function withStderrFull(args: string[]): { status: number | null; stdout: string } {
  const full = openSync('/dev/full', 'w');
  try {
    const r = spawnSync(process.execPath, [CLI_PATH, ...args], { stdio: ['ignore', 'pipe', full], env: testEnv(), encoding: 'utf8', timeout: 30_000 });
    return { status: r.status, stdout: r.stdout };
  } finally {
    closeSync(full);
  }
}

describe.skipIf(!existsSync('/dev/full'))('2> /dev/full', () => {
  it('`show zzz` still exits 4 (no such exercise), its message lost', () => {
    expect(withStderrFull(['--sandbox', 'show', 'zzz']).status).toBe(4);
  });

  it('`-v ids --all` still exits 0 with every id on stdout, its verbose lines lost', async () => {
    const plain = await runCli(['--sandbox', 'ids', '--all']);
    expect(plain.code).toBe(0);
    const r = withStderrFull(['--sandbox', '-v', 'ids', '--all']);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(plain.stdout);
  });
});

describe('stdout a full non-blocking pipe (EAGAIN)', () => {
  it('every byte arrives in order once the reader catches up, exit 0', async (ctx) => {
    if (!HAVE_MKFIFO) ctx.skip('mkfifo is not installed');
    const plain = await runCli(['--sandbox', 'ids', '--all']);
    expect(plain.code).toBe(0);

    const fifo = join(tempDir('exercises-eagain-'), 'out');
    spawnSync('mkfifo', [fifo]);
    // Opened non-blocking (a flag of the open file, which the child shares) and filled to the
    // brim, so the command's first write into it meets EAGAIN.
    const fd = openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK);
    let prefilled = 0;
    try {
      for (;;) prefilled += writeSync(fd, Buffer.alloc(4096, 0x23));
    } catch (err) {
      expect((err as NodeJS.ErrnoException).code).toBe('EAGAIN');
    }
    const child = spawn(process.execPath, [CLI_PATH, '--sandbox', '-v', 'ids', '--all'], { stdio: ['ignore', fd, 'pipe'], env: testEnv() });
    closeSync(fd);
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    // Read only once the first page is in (its verbose line): its lines are then being written into the full pipe.
    const stderr = child.stderr!;
    await new Promise<void>((resolve) => stderr.once('data', () => resolve()));
    stderr.resume();
    const chunks: Buffer[] = [];
    await new Promise<void>((resolve, reject) => {
      createReadStream(fifo)
        .on('data', (chunk) => chunks.push(chunk as Buffer))
        .on('end', resolve)
        .on('error', reject);
    });
    expect(await exited).toBe(0);
    const all = Buffer.concat(chunks);
    expect(all.subarray(0, prefilled).every((byte) => byte === 0x23)).toBe(true);
    expect(all.subarray(prefilled).toString('utf8')).toBe(plain.stdout);
  });
});
