/**
 * The picker: a search prompt (@inquirer/search, loaded only when a prompt is shown) over
 * exercises already known, filtered as the person types (fuzzy.ts), one sanitised line each
 * (label.ts). No request is sent while typing: the source is a list in memory. Enter returns
 * the chosen id; Esc or Ctrl-C throws PromptCancelledError (exit 130, nothing printed). The
 * prompt is drawn on stdout, which is a terminal whenever a prompt is allowed
 * (interactive.ts), and erased when done, so what follows on stdout is the answer alone.
 */
import type { Context } from '../context.js';
import { PromptCancelledError } from '../errors.js';
import { loadMeasure } from '../output/width.js';
import { escapeUnsafe } from '../util/text.js';
import type { PickCandidate } from './candidates.js';
import { fuzzyFilter } from './fuzzy.js';
import { columnsFor, labelOf } from './label.js';
import { loadInquirerSearch } from '../vendor/inquirer-search.js';

/** Lines shown at a time, and matches offered at most (the best ones; typing narrows them). */
const PAGE_SIZE = 10;
const MAX_SHOWN = 200;

export interface Choice<V> {
  value: V;
  name: string;
  short?: string;
}

/** The prompt errors of @inquirer/core that mean "the person left". */
const LEFT = new Set(['ExitPromptError', 'AbortPromptError', 'CancelPromptError']);

/**
 * Runs a search prompt whose choices come from `source` (called on every key, in memory).
 * Esc leaves as Ctrl-C does: inquirer reads keys through readline, which emits them as
 * `keypress` events on the input stream.
 */
export async function searchPrompt<V>(ctx: Pick<Context, 'io'>, message: string, source: (term: string) => Array<Choice<V>>): Promise<V> {
  const { default: search } = await loadInquirerSearch();
  const { stdin, stdout } = ctx.io;
  const controller = new AbortController();
  const onKey = (_text: unknown, key: { name?: string } | undefined): void => {
    if (key?.name === 'escape') controller.abort();
  };
  stdin.on('keypress', onKey);
  try {
    return await search<V>(
      { message, pageSize: PAGE_SIZE, source: async (term) => source(term ?? '') },
      { input: stdin, output: stdout, clearPromptOnDone: true, signal: controller.signal },
    );
  } catch (err) {
    if (err instanceof Error && LEFT.has(err.name)) throw new PromptCancelledError();
    throw err;
  } finally {
    stdin.off('keypress', onKey);
    // readline leaves stdin flowing: paused, it no longer holds the process open.
    stdin.pause();
  }
}

/** Lets the person choose one of `candidates`; returns its id. */
export async function pickExercise(ctx: Pick<Context, 'io'>, candidates: readonly PickCandidate[], message: string): Promise<string> {
  const measure = await loadMeasure();
  const cols = columnsFor(candidates, ctx.io.columns, measure);
  const labels = new Map(candidates.map((c) => [c.id, labelOf(c, cols, measure)]));
  return searchPrompt(ctx, message, (term) =>
    fuzzyFilter(candidates, term, (c) => c.folded)
      .slice(0, MAX_SHOWN)
      .map((c) => ({ value: c.id, name: labels.get(c.id)!, short: escapeUnsafe(c.id) })),
  );
}
