/** The list runner in-process, with the context a command gets: the next-page footer repeats the context's command line. */
import { describe, expect, it } from 'vitest';
import type { ListResponse } from '../../src/catalogue/types.js';
import { outputList } from '../../src/commands/shared/list-output.js';
import { testContext } from '../helpers/test-context.js';

describe('outputList', () => {
  it("builds the next-page command from the context's arguments, not the process's", async () => {
    const { ctx, stdout } = testContext({ stdoutIsTTY: true, columns: 100, globals: { format: 'table', color: false, pager: false } });
    ctx.argv = ['ids', '--limit', '2', '--format', 'table'];
    const page: ListResponse = {
      exercises: [
        { id: 'A', name: 'A' },
        { id: 'B', name: 'B' },
      ],
      pagination: { total: 5, next: 'cursor-2' },
    };
    await outputList(ctx, async () => page, { limit: 2, follow: false });
    const footer = stdout.text().trim().split('\n').pop();
    expect(footer).toBe('1–2 of 5 exercises · next page: exercises ids --limit 2 --format table --after cursor-2');
  });
});
