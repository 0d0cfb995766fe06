/**
 * What `show`, `image` and `video` do when no id was given: on a terminal, open the picker
 * over the exercises already known (known-exercises.ts); when none are, say so and offer to
 * list them from the service, naming what that costs, and pick from that list; anywhere
 * else, the usage error a missing id has always been.
 */
import type { Context } from '../context.js';
import type { ExerciseSummary } from '../catalogue/types.js';
import { LIMIT_MAX } from '../defaults.js';
import { NotFoundError, PromptCancelledError } from '../errors.js';
import { canPrompt, missingIdError } from './interactive.js';
import { candidateOf, mergeCandidates } from './candidates.js';
import { knownExercises } from './known-exercises.js';
import { pickExercise, searchPrompt } from './pick.js';
import { paginate } from '../api/paging.js';

/** The id the person picked for `command`; a usage error where no prompt may be shown. */
export async function pickMissingId(ctx: Context, command: string, usage: string): Promise<string> {
  if (!canPrompt(ctx)) throw missingIdError(command, usage);
  const known = await knownExercises(ctx);
  if (known.candidates.length > 0) return pickExercise(ctx, known.candidates, `Pick an exercise to ${verbOf(command)} (type to filter):`);

  const listed = await offerListing(ctx);
  return pickExercise(ctx, listed, `Pick an exercise to ${verbOf(command)} (type to filter):`);
}

function verbOf(command: string): string {
  return command === 'show' ? 'show' : `fetch the ${command}s of`;
}

/**
 * Nothing known yet: says so, and offers `ids --all` (one request per LIMIT_MAX exercises)
 * before spending anything. Returns the listed exercises; leaving the offer exits 130.
 */
async function offerListing(ctx: Context): Promise<ReturnType<typeof mergeCandidates>> {
  const conn = await ctx.connection();
  const choice = await searchPrompt(ctx, `No exercises are known yet (none cached for ${new URL(conn.baseUrl).host}). List them?`, () => [
    { value: 'list', name: `List every exercise id (exercises ids --all): one request per ${LIMIT_MAX} exercises`, short: 'ids --all' },
    { value: 'cancel', name: 'Cancel (no request)', short: 'cancel' },
  ]);
  if (choice !== 'list') throw new PromptCancelledError();
  const api = await ctx.api();
  const items: ExerciseSummary[] = [];
  for await (const item of paginate((cursor) => api.exerciseIds({ ...cursor, limit: LIMIT_MAX }), { limit: LIMIT_MAX })) items.push(item);
  const candidates = mergeCandidates([items.map((e) => candidateOf(e))]);
  if (candidates.length === 0) {
    throw new NotFoundError(`${conn.baseUrl} lists no exercises.`);
  }
  return candidates;
}
