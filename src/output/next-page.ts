/**
 * The exact command line for the next page, for the table footer: the user's own
 * arguments with the paging flags replaced (and the key, if given as a flag, removed).
 */

/** Flags dropped from the repeated command, with whether they take a value. */
const DROPPED: Record<string, boolean> = { '--after': true, '--before': true, '--api-key': true, '--max': true, '--all': false };

export function shellQuote(arg: string): string {
  if (/^[A-Za-z0-9_\-.,:/=@%+]+$/.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

export function nextPageCommand(args: readonly string[], cursor: string, direction: 'after' | 'before' = 'after'): string {
  const kept: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      kept.push(...args.slice(i));
      break;
    }
    const name = arg.includes('=') ? arg.slice(0, arg.indexOf('=')) : arg;
    if (name in DROPPED) {
      if (DROPPED[name] && !arg.includes('=')) i++; // skip the separate value
      continue;
    }
    kept.push(arg);
  }
  return ['exercises', ...kept, `--${direction}`, cursor].map(shellQuote).join(' ');
}
