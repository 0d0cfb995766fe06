/** The client's own errors: an answer that does not match the interface, and a listing the budget stopped part-way. */
import { BudgetExceededError, MalformedResponseError } from '../errors.js';

export function malformed(what: string, problems: string[]): MalformedResponseError {
  const shown = problems.slice(0, 3).join('; ');
  const more = problems.length > 3 ? ` (and ${problems.length - 3} more)` : '';
  return new MalformedResponseError(`The answer to ${what} does not match the service interface: ${shown}${more}.`, {
    hint: 'Check the base URL points at the exercise service; run with --verbose to see the request.',
    details: { request: what, problems: problems.slice(0, 20) },
  });
}

/** The budget stopped a listing part-way: what was printed stays, and the sentence says where it stopped. */
export function stoppedAtBudget(err: BudgetExceededError, pages: number, cached: boolean): BudgetExceededError {
  // Only a cache that was written makes the rerun free up to here (not under --no-cache, nor for a local catalogue).
  const rerun = cached
    ? 'run again to continue (the pages already fetched are cached, so they cost nothing then)'
    : 'a rerun fetches those pages again (the response cache is off)';
  return new BudgetExceededError(
    { month: err.month, requests: err.requests, budget: err.budget, origin: err.origin },
    {
      hint: `Stopped at the budget after ${pages} page${pages === 1 ? '' : 's'}; ${rerun}. ${err.hint ?? ''}`.trim(),
      details: { pages },
    },
  );
}
