/**
 * The ids a command was given: its arguments, with `-` standing for the ids read from stdin
 * (read once, however often `-` appears). Used by `show` and `download`.
 */
import type { IOStreams } from '../../context.js';
import { UsageError } from '../../errors.js';

/** Refuses an empty argument (`show ""`): it would ask for the collection, not an exercise. */
export function assertNoEmptyIds(args: readonly string[]): void {
  if (args.some((a) => a.trim() === '')) throw new UsageError('An exercise id or name cannot be empty.');
}

/** `io.stdin` is touched only when `-` is given: creating process.stdin costs start-up time. */
export async function* requestedIds(args: readonly string[], io: Pick<IOStreams, 'stdin'>): AsyncIterable<string> {
  let stdinUsed = false;
  for (const arg of args) {
    if (arg !== '-') {
      yield arg;
      continue;
    }
    if (stdinUsed) continue;
    stdinUsed = true;
    // Loaded only for `-`: it brings in readline, which plain `show <id>` does not need.
    const { readIds } = await import('./read-ids.js');
    yield* readIds(io.stdin);
  }
}
