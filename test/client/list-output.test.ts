/** The list runner in-process, with the context a command gets: the next-page footer repeats the context's command line. */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Context } from '../../src/context.js';
import type { ListResponse } from '../../src/catalogue/types.js';
import { outputList } from '../../src/commands/shared/list-output.js';

function tableContext(argv: string[]): { ctx: Context; stdout: PassThrough } {
  const stdout = new PassThrough();
  const ctx: Context = {
    io: { stdout, stderr: new PassThrough(), stdin: new PassThrough(), stdoutIsTTY: true, stderrIsTTY: false, stdinIsTTY: false, columns: 100 },
    env: {},
    argv,
    globals: { color: false, verbose: false, quiet: false, sandbox: false, allowInsecure: false, format: 'table' },
    signal: new AbortController().signal,
    onExit: () => {},
    connection: () => Promise.reject(new Error('this test makes no requests')),
  } as Context;
  return { ctx, stdout };
}

describe('outputList', () => {
  it('builds the next-page command from the context\'s arguments, not the process\'s', async () => {
    const { ctx, stdout } = tableContext(['ids', '--limit', '2', '--format', 'table']);
    const page: ListResponse = {
      exercises: [{ id: 'A', name: 'A' }, { id: 'B', name: 'B' }],
      pagination: { total: 5, next: 'cursor-2' },
    } as ListResponse;
    await outputList(ctx, async () => page, { limit: 2, follow: false });
    const footer = String(stdout.read()).trim().split('\n').pop();
    expect(footer).toBe('1–2 of 5 exercises · next page: exercises ids --limit 2 --format table --after cursor-2');
  });
});
