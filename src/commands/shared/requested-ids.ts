/**
 * The ids a command was given (`-` for the ids read from stdin, once) and what each text names,
 * from what this machine knows, never a request: the exact id, the id in any case, the name, the
 * name in any case, an alias; else part of names (one taken with a notice, several listed or
 * offered in the picker), or with `--search` one listing request. A miss gets "Did you mean …?".
 */
import type { Context, IOStreams } from '../../context.js';
import type { ApiClient } from '../../api/client.js';
import type { ExerciseRecord, ExerciseSummary } from '../../catalogue/types.js';
import { LIMIT_MAX, MAX_ID_LINE_BYTES } from '../../defaults.js';
import { NotFoundError, UsageError } from '../../errors.js';
import { type PickCandidate, candidateOf, foldText, mergeCandidates } from '../../prompt/candidates.js';
import { type KnownExercises, knownExercises } from '../../prompt/known-exercises.js';
import { langInForce } from '../../config/settings.js';
import { escapeUnsafe, oneLine } from '../../util/text.js';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { writeNotice } from '../../output/notice.js';
import { closest, orList } from '../../catalogue/suggest.js';
import { canPrompt, pickExercises } from '../../prompt/pick.js';

/** Refuses an empty argument (`show ""`): it would ask for the collection. */
export function assertNoEmptyIds(args: readonly string[]): void {
  if (args.some((a) => a.trim() === '')) throw new UsageError('An exercise id or name cannot be empty.');
}

/** What `show -` and `download -` say when stdin held no ids. */
export function noIdsOnStdin(): UsageError {
  return new UsageError('No exercise ids were given on stdin.', {
    hint: 'Pipe ids in, one a line (`exercises ids --all | exercises show -`), or give them as arguments.',
  });
}

/** Reads stdin only when `-` is given; a terminal on stdin gets a line on stderr, so the wait is not silent. */
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
    // Loaded only for `-`: it brings in readline.
    yield* readIds(io.stdin);
  }
}

function tooLong(lineNo: number): UsageError {
  return new UsageError(`Line ${lineNo} of stdin is longer than ${MAX_ID_LINE_BYTES} bytes; it cannot be an exercise id.`, {
    hint: 'Give one id per line (or the output of `exercises ids`).',
  });
}

/** The ids of `input`, one a line: a JSON line's "id" or "name", a tsv line's first field, else the line; an overlong line is refused as soon as seen. */
export async function* readIds(input: Readable): AsyncIterable<string> {
  const decoder = new StringDecoder('utf8');
  let pending = '';
  let lineNo = 0;
  const idOf = (line: string): string | undefined => {
    lineNo++;
    const raw = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (Buffer.byteLength(raw, 'utf8') > MAX_ID_LINE_BYTES) throw tooLong(lineNo);
    const text = raw.trim();
    if (text.startsWith('{')) return fromJson(text, lineNo);
    if (!raw.includes('\t')) return text === '' ? undefined : text;
    const first = raw.split('\t')[0]!.trim();
    // The header of our own tsv output; tsvLine's escapes (\\ \t \n \r) undone.
    if ((lineNo === 1 && first === 'id') || first === '') return undefined;
    return first.replace(/\\([\\tnr])/g, (_m, c: string) => (c === 't' ? '\t' : c === 'n' ? '\n' : c === 'r' ? '\r' : '\\'));
  };
  for await (const chunk of input) {
    pending += typeof chunk === 'string' ? chunk : decoder.write(chunk as Buffer);
    let start = 0;
    for (let nl = pending.indexOf('\n'); nl !== -1; nl = pending.indexOf('\n', start)) {
      const id = idOf(pending.slice(start, nl));
      if (id !== undefined) yield id;
      start = nl + 1;
    }
    pending = pending.slice(start);
    // Characters never outnumber UTF-8 bytes: past this, the line is too long whatever follows.
    if (pending.length > MAX_ID_LINE_BYTES) throw tooLong(lineNo + 1);
  }
  pending += decoder.end();
  const last = pending === '' ? undefined : idOf(pending);
  if (last !== undefined) yield last;
}

function fromJson(line: string, lineNo: number): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    throw new UsageError(`Line ${lineNo} of stdin looks like JSON but is not valid JSON.`);
  }
  const o = parsed as { id?: unknown; name?: unknown };
  const value = typeof o?.id === 'string' && o.id !== '' ? o.id : typeof o?.name === 'string' && o.name !== '' ? o.name : undefined;
  if (value === undefined) throw new UsageError(`Line ${lineNo} of stdin has no "id" or "name" field.`);
  return value;
}

/** The record of `idOrName` in the language in force. */
export function recordOf(ctx: Context, api: ApiClient, idOrName: string): Promise<ExerciseRecord> {
  const lang = langInForce(ctx.settings());
  return api.getExercise(idOrName, lang ? { lang } : {});
}

const LISTED_MAX = 10;

export type Resolution =
  /** Take this id; `notice` says why when the text was only part of a name. */
  | { kind: 'id'; id: string; notice?: string }
  /** The text is part of several names: NotFoundError from ambiguousError(). */
  | { kind: 'several'; matches: PickCandidate[] }
  /** Nothing known matches: ask the service with the text as given. */
  | { kind: 'unknown' };

/** What this run knows, read once. */
const knownByRun = new WeakMap<Context, Promise<KnownExercises>>();

function known(ctx: Context): Promise<KnownExercises> {
  // An unreadable cache or catalogue only means nothing is resolved locally.
  if (!knownByRun.has(ctx))
    knownByRun.set(
      ctx,
      knownExercises(ctx).catch((): KnownExercises => ({ candidates: [], source: 'cache' })),
    );
  return knownByRun.get(ctx)!;
}

/** The id `typed` names exactly (the module comment's order), or undefined. */
function exactMatch(typed: string, candidates: readonly PickCandidate[]): string | undefined {
  const lower = typed.toLowerCase();
  const names = (c: PickCandidate): string[] => [c.name, c.displayName].filter((n): n is string => n !== undefined);
  const steps: Array<(c: PickCandidate) => boolean> = [
    (c) => c.id === typed,
    (c) => c.id.toLowerCase() === lower,
    (c) => names(c).includes(typed),
    (c) => names(c).some((n) => n.toLowerCase() === lower),
    (c) => (c.aliases ?? []).some((a) => a.toLowerCase() === lower),
  ];
  for (const step of steps) {
    const hits = candidates.filter(step);
    if (hits.length === 1) return hits[0]!.id;
  }
  return undefined;
}

/** The candidates one of whose texts contains `typed` (any case, accents and `_`/`-` aside). */
function partialMatches(typed: string, candidates: readonly PickCandidate[]): PickCandidate[] {
  const wanted = foldText(typed).trim();
  if (wanted === '') return [];
  return candidates.filter((c) => c.folded.some((t) => t.includes(wanted)));
}

function described(c: PickCandidate): string {
  const name = c.displayName ?? c.name;
  return name !== undefined && name !== c.id ? `${escapeUnsafe(c.id)} ("${escapeUnsafe(name)}")` : escapeUnsafe(c.id);
}

/** Exact first, then part of a name: one match taken (with `notice`), several listed. */
function resolveAmong(typed: string, candidates: readonly PickCandidate[], how?: string): Resolution {
  const exact = exactMatch(typed, candidates);
  if (exact !== undefined) return { kind: 'id', id: exact };
  const partial = how === undefined ? [] : partialMatches(typed, candidates);
  if (partial.length === 1) {
    return {
      kind: 'id',
      id: partial[0]!.id,
      notice: `Taking ${described(partial[0]!)}, the one exercise ${how} whose name or alias contains "${oneLine(typed)}".`,
    };
  }
  return partial.length > 1 ? { kind: 'several', matches: partial } : { kind: 'unknown' };
}

/** The id `typed` stands for, locally; with `partial`, part of names too (where records are local, or after the service said no). */
export async function resolveLocally(ctx: Context, typed: string, options: { partial: boolean }): Promise<Resolution> {
  const { candidates, source } = await known(ctx);
  return resolveAmong(typed, candidates, !options.partial ? undefined : source === 'catalogue' ? 'in the catalogue' : 'known on this machine');
}

/** True when every record is local: a partial match may be taken before any request. */
export async function recordsAreLocal(ctx: Context): Promise<boolean> {
  return (await known(ctx)).source === 'catalogue';
}

/**
 * A text as given, before any request: a name (it has a space) resolved exactly, and as part of names
 * where records are local. A text without a space is sent as typed (most often an id, which the cache
 * answers without loading every known exercise); the caller resolves it after a miss.
 */
export async function resolveGiven(ctx: Context, typed: string): Promise<Resolution> {
  if (!/\s/.test(typed.trim())) return { kind: 'unknown' };
  const r = await resolveLocally(ctx, typed, { partial: await recordsAreLocal(ctx) });
  if (r.kind === 'id') tellResolution(ctx, r);
  return r;
}

export function tellResolution(ctx: Context, r: Resolution): void {
  if (r.kind === 'id' && r.notice !== undefined && !ctx.globals.quiet) writeNotice(ctx.io, r.notice);
}

/** `--search`: one listing request (`query --name`), resolved as local records are. */
export async function resolveBySearch(ctx: Context, api: ApiClient, typed: string): Promise<Resolution> {
  const lang = langInForce(ctx.settings());
  const answer = await api.query({ name: typed, limit: LIMIT_MAX, ...(lang ? { lang } : {}) });
  const found = mergeCandidates([answer.exercises.map((e: ExerciseSummary) => candidateOf(e, lang))]);
  const resolution = resolveAmong(typed, found, 'the service lists (--search: one listing request)');
  if (resolution.kind === 'id' && resolution.notice === undefined)
    return { ...resolution, notice: `Taking ${escapeUnsafe(resolution.id)}, found with --search (one listing request).` };
  return resolution;
}

/** A text naming several: at a terminal the picker offers them; elsewhere the error listing them. */
export async function oneOf(ctx: Context, typed: string, matches: readonly PickCandidate[]): Promise<string> {
  if (!canPrompt(ctx)) throw ambiguousError(typed, matches);
  const message = `"${escapeUnsafe(typed)}" is part of the names of ${matches.length} exercises; pick one (type to filter):`;
  return (await pickExercises(ctx, matches, message))[0]!;
}

/** The first ten with their ids, and the query that lists them all. */
function ambiguousError(typed: string, matches: readonly PickCandidate[]): NotFoundError {
  const shown = matches.slice(0, LISTED_MAX).map((c) => `  ${described(c)}`);
  const more = matches.length > LISTED_MAX ? [`  … and ${matches.length - LISTED_MAX} more`] : [];
  return new NotFoundError(
    `"${oneLine(typed)}" is part of the names of ${matches.length} exercises; give one of their ids:\n${[...shown, ...more].join('\n')}`,
    {
      hint: `List them with \`${nameQuery(typed)}\`.`,
      details: { matches: matches.map((c) => c.id) },
    },
  );
}

export function nameQuery(typed: string): string {
  return `exercises query --name ${shellQuoted(oneLine(typed))}`;
}

/** `"bench press"`, or `'say "hi"'` when the text holds what double quotes would still expand. */
function shellQuoted(text: string): string {
  if (!/["$`\\!]/.test(text)) return `"${text}"`;
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The ids (at most three) nearest `typed` by id or by name among what is known locally, best first. */
export async function nearIds(ctx: Context, typed: string): Promise<string[]> {
  const { candidates } = await known(ctx);
  const named = candidates.filter((c) => c.name !== undefined);
  const near = [...closest(typed, candidates, (c) => c.id), ...closest(typed, named, (c) => c.name!)].map((c) => c.id);
  return [...new Set(near)].filter((id) => id !== typed).slice(0, 3);
}

export async function nearIdsHint(ctx: Context, typed: string): Promise<string | undefined> {
  const ids = await nearIds(ctx, typed);
  return ids.length > 0 ? `Did you mean ${orList(ids)}? (known on this machine)` : undefined;
}
