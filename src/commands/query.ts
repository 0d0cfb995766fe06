/** `exercises query`: GET /exercise/query with every filter of spec §4.1. */
import type { Context } from '../context.js';
import { langInForce } from '../config/settings.js';
import type { RegisterCommand } from './shared/register.js';
import { NotFoundError, UsageError } from '../errors.js';
import { type PageCursor, paginatePages } from '../api/paging.js';
import { addExamples } from './shared/help.js';
import { type PagingChoice, addPagingOptions, outputList, pagingFromOptions } from './shared/list-output.js';
import { type QueryFilterParams, addQueryFilterOptions, queryParamsFromOptions } from './shared/query-filters.js';
import { requestedFields } from '../output/fields.js';
import { ENUM_FILTERS } from '../catalogue/enums.js';
import { enumMeaning, enumSuggestions } from '../catalogue/enum-parse.js';
import { candidateOf, mergeCandidates } from '../prompt/candidates.js';
import { knownExercises } from '../prompt/known-exercises.js';
import { canPrompt, mayAsk, pickExercises, pickTerminal } from '../prompt/pick.js';
import { run as show } from './show.js';
import { showOnWeb } from './shared/web-view.js';
import type { MediaKind } from '../catalogue/media.js';
import type { ExerciseSummary } from '../catalogue/types.js';

export interface QueryOptions {
  filters: QueryFilterParams;
  paging: PagingChoice;
  /** `--pick`: choose among the results at the terminal, then show their records. */
  pick?: boolean;
  /** `--web`: the results as a gallery in the browser, media fetched for the kinds named. */
  web?: { fetch: MediaKind[] };
}

export async function run(options: QueryOptions, ctx: Context): Promise<void> {
  if (options.pick) return pickFromResults(options, ctx);
  if (options.web) {
    const kinds = ['image', 'video'] as const;
    return showOnWeb(ctx, await ctx.api(), await results(options, ctx), { kinds, fetch: options.web.fetch });
  }
  requestedFields(ctx.globals, 'summary'); // an unknown --json field is a usage error before the key is even needed
  const lang = langInForce(ctx.settings());
  const api = await ctx.api();
  await outputList(ctx, (cursor) => api.query({ ...options.filters, ...cursor, ...(lang ? { lang } : {}) }), options.paging, nameHint(options.filters.name));
}

/** The service matches --name as it likes (`push up` may miss "Push-Up"): when nothing matches, say what else to try. */
function nameHint(name: string | undefined): { emptyHint?: string } {
  if (name === undefined || !/[\s\-_]/.test(name.trim())) return {};
  const words = name.trim().split(/[\s\-_]+/);
  const longest = [...words].sort((a, b) => b.length - a.length)[0]!;
  return { emptyHint: `The service matches names as written: try --name "${words.join('-')}" or --name ${JSON.stringify(longest)}.` };
}

/** `query chest`: a usage error suggesting `--name chest` and the enum flags the word is a value of. */
async function bareWordError(words: readonly string[]): Promise<UsageError> {
  const text = words.join(' ');
  const quoted = /[\s"'$`\\]/.test(text) ? JSON.stringify(text) : text;
  const tries = [`--name ${quoted}`];
  for (const filter of ENUM_FILTERS) {
    if (filter.param === 'secondaryMuscle') continue; // --muscle says it for muscles
    const flag = filter.param === 'primaryMuscle' ? '--muscle' : `--${filter.param}`;
    const meant = enumMeaning(filter.enum, text);
    const values = meant.length > 0 ? meant : enumSuggestions(filter.enum, text, 1);
    for (const v of values) tries.push(`${flag} ${v.toLowerCase().replace(/_/g, '-')}`);
  }
  const commands = tries.slice(0, 4).map((t) => `\`exercises query ${t}\``);
  return new UsageError(`query takes filters as flags, not words: "${text}".`, {
    hint: `Try ${commands.join(' or ')}; \`exercises query --help\` lists every filter.`,
  });
}

/**
 * `query --pick`: the results offered in the picker, the ones chosen given to `show`, or printed
 * for the next command when stdout is a pipe (`--pick --format jsonl | exercises download -`).
 * The terminal is opened first: with none to pick on, nothing is listed.
 */
async function pickFromResults(options: QueryOptions, ctx: Context): Promise<void> {
  const terminal = mayAsk(ctx) ? pickTerminal(ctx, { orDevTty: true }) : undefined;
  if (!terminal) {
    throw new UsageError('--pick chooses at a terminal, and this run has none to ask (no terminal to open, CI is set, or --no-input was given).', {
      hint: 'In a script, list the results (`exercises query ... --format jsonl`) and pass the ids to `exercises show` or `exercises download -`.',
    });
  }
  let chosen: string[];
  try {
    const lang = langInForce(ctx.settings());
    const found = mergeCandidates([(await results(options, ctx)).map((r) => candidateOf(r, lang))]);
    // List items are summaries: muscles and equipment come from what is known on disk, when it is.
    const ids = new Set(found.map((c) => c.id));
    const known = (await knownExercises(ctx)).candidates.filter((c) => ids.has(c.id));
    const candidates = mergeCandidates([found, known]);
    if (candidates.length === 0)
      throw new NotFoundError('No exercise matches these filters.', { hint: 'Loosen a filter, or list them all with `exercises query --all`.' });
    const verb = ctx.io.stdoutIsTTY && canPrompt(ctx) ? 'show' : 'print';
    const message = `Pick among ${candidates.length} results to ${verb} (type to filter, Tab marks several):`;
    chosen = await pickExercises(ctx, candidates, message, { multi: true, terminal });
  } finally {
    terminal.close();
  }
  await show({ ids: chosen }, ctx);
}

async function results(options: QueryOptions, ctx: Context): Promise<ExerciseSummary[]> {
  const lang = langInForce(ctx.settings());
  const api = await ctx.api();
  const { limit, after, before, follow, max } = options.paging;
  const fetchPage = (cursor: PageCursor) => api.query({ ...options.filters, ...cursor, limit, ...(lang ? { lang } : {}) });
  const found: ExerciseSummary[] = [];
  // Item by item, not push(...items): a page of 150,000 would overflow the argument list.
  for await (const items of paginatePages(fetchPage, { limit, after, before, ...(follow ? { max } : { max: limit }) }))
    for (const item of items) found.push(item);
  return found;
}

export const register: RegisterCommand<QueryOptions> = (program, context, runF = run) => {
  const cmd = program
    .command('query')
    .summary('search the catalogue with filters')
    .description('search the catalogue with filters; a filter of several values takes a comma list or the flag repeated');
  addQueryFilterOptions(cmd);
  addPagingOptions(cmd);
  cmd
    .option('--pick', 'choose among the results at the terminal, then show them (Tab marks several)')
    .option('--web', 'open the results in the browser, as a gallery')
    .option('--images', 'with --web: fetch the pictures (a request each)')
    .option('--videos', 'with --web: fetch the videos (a request each)');
  addExamples(
    cmd,
    [
      'exercises query --muscle chest',
      'exercises query --name "bench press" --level beginner',
      'exercises query --category strength,plyometrics --equipment dumbbell',
      'exercises query --name kniebeuge --searchlang de-DE --lang de-DE',
      'exercises query --muscle chest --pick',
      'exercises query --muscle chest --web',
    ],
    [
      'exercises query --muscle chest --all --format jsonl | jq -r .id',
      'exercises query --equipment kettlebells --all | cut -f1,2',
      'exercises query --level expert --all --format csv > expert.csv',
      'exercises query --muscle chest --pick --format jsonl | exercises download -',
    ],
  );
  // A bare word (`query chest`) is answered by the action with the flags it may mean.
  cmd.allowExcessArguments(true);
  cmd.action(async (opts: Record<string, unknown>) => {
    if (cmd.args.length > 0) throw await bareWordError(cmd.args);
    if ((opts.images || opts.videos) && !opts.web) throw new UsageError(`--${opts.images ? 'images' : 'videos'} goes with --web: it puts them in the gallery.`);
    if (opts.web && opts.pick) throw new UsageError('--pick chooses at the terminal, --web opens the results in the browser: give one of them.');
    const fetch = (['image', 'video'] as const).filter((kind) => opts[`${kind}s`] === true);
    await runF(
      {
        filters: queryParamsFromOptions(opts),
        paging: pagingFromOptions(opts),
        ...(opts.pick === true ? { pick: true } : {}),
        ...(opts.web === true ? { web: { fetch } } : {}),
      },
      context(),
    );
  });
};
