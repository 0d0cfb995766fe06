/**
 * The ids a command was given: its arguments, with `-` standing for the ids read from stdin
 * (read once, however often `-` appears). Used by `show` and `download`.
 */
import type { IOStreams } from '../../context.js';
import { UsageError } from '../../errors.js';
import { readIds } from './read-ids.js';

/** Refuses an empty argument (`show ""`): it would ask for the collection, not an exercise. */
export function assertNoEmptyIds(args: readonly string[]): void {
  if (args.some((a) => a.trim() === '')) throw new UsageError('An exercise id or name cannot be empty.');
}

/** What `show -` and `download -` say when stdin held no ids at all: the same usage error. */
export function noIdsOnStdin(): UsageError {
  return new UsageError('No exercise ids were given on stdin.', {
    hint: 'Pipe ids in, one a line (`exercises ids --all | exercises show -`), or give them as arguments.',
  });
}

/**
 * `io.stdin` is touched only when `-` is given: creating process.stdin costs start-up time.
 * A terminal on stdin gets a line on stderr, so a person is not left facing a silent wait.
 */
export async function* requestedIds(args: readonly string[], io: Pick<IOStreams, 'stdin' | 'stdinIsTTY' | 'stderr'>, quiet = false): AsyncIterable<string> {
  let stdinUsed = false;
  for (const arg of args) {
    if (arg !== '-') {
      yield arg;
      continue;
    }
    if (stdinUsed) continue;
    stdinUsed = true;
    if (io.stdinIsTTY && !quiet) io.stderr.write('Waiting for exercise ids on stdin, one a line (end with Ctrl-D)…\n');
    // Loaded only for `-`: it brings in readline, which plain `show <id>` does not need.
    yield* readIds(io.stdin);
  }
}
