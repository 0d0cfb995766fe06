/** The service client: one typed method per endpoint, the URLs they are sent to, every answer schema-checked (unknown fields pass); nothing here prints. */
import { BudgetExceededError, MalformedResponseError, NotFoundError, UsageError } from '../errors.js';
import type { Category, Equipment, Force, Level, Mechanic, Muscle } from '../catalogue/enums.js';
import { MEDIA, type MediaKind, isAbsoluteUrl, stripExtension } from '../catalogue/media.js';
import type { ExerciseRecord, ListResponse } from '../catalogue/types.js';
import { listResponseProblems, recordProblems } from '../catalogue/validate.js';
import type { Transport } from '../http/transport.js';
import { parseBaseUrl } from '../util/url-policy.js';
import { type QueryInput, resolveUrl, type FetchResult, type Validators, type ClientCache, cachedApiGet, outcomeLine, keyHash } from '../cache/cached-get.js';
import { contentLanguage } from '../cache/headers.js';

/** `.` and `..`: URL normalisation removes them from a path even percent-encoded, so they can never be sent. */
export function isDotSegment(value: string): boolean {
  return value === '.' || value === '..';
}

/** A value as one percent-encoded path segment; `.` and `..` cannot be sent at all. */
export function pathSegment(value: string): string {
  if (isDotSegment(value)) throw new UsageError(`"${value}" cannot be an exercise id, name or media name.`);
  return encodeURIComponent(value);
}

/** Query parameters as strings: undefined ones left out, arrays repeated (an empty one sends nothing). */
function toQuery(params: object): QueryInput {
  const given = Object.entries(params).filter(([, value]) => value !== undefined && value !== null);
  return Object.fromEntries(given.map(([name, value]) => [name, Array.isArray(value) ? value.map(String) : String(value)]));
}

/**
 * The URL of a premiumImages/premiumVideos entry: a bare name becomes the spec's path, an absolute
 * http(s) URL is taken as is, a path is resolved against the base URL. One no URL can carry is a
 * MalformedResponseError (it came from the network), never a UsageError.
 */
export function mediaUrl(baseUrl: URL, kind: MediaKind, exerciseId: string, entry: string): URL {
  const { folder, extension } = MEDIA[kind];
  if (isAbsoluteUrl(entry)) {
    const url = URL.canParse(entry) ? new URL(entry) : undefined;
    if (url?.protocol === 'http:' || url?.protocol === 'https:') return url;
    throw new MalformedResponseError(`The media URL ${JSON.stringify(entry.slice(0, 200))} is not an http or https URL.`, { details: { entry } });
  }
  if (entry.startsWith('/')) return resolveUrl(baseUrl, entry);
  if (isDotSegment(exerciseId)) {
    throw new MalformedResponseError(`The exercise id "${exerciseId}" cannot be sent in a media URL (URL normalisation removes it).`, {
      details: { exercise: exerciseId, entry },
    });
  }
  const file = `${stripExtension(kind, entry)}${extension}`;
  return resolveUrl(baseUrl, `/${folder}/${pathSegment(exerciseId)}/premium/${pathSegment(file)}`);
}

function malformed(what: string, problems: string[]): MalformedResponseError {
  const more = problems.length > 3 ? ` (and ${problems.length - 3} more)` : '';
  return new MalformedResponseError(`The answer to ${what} does not match the service interface: ${problems.slice(0, 3).join('; ')}${more}.`, {
    hint: 'Check the base URL points at the exercise service; run with --verbose to see the request.',
    details: { request: what, problems: problems.slice(0, 20) },
  });
}

/** The budget stopped a listing part-way: what was printed stays; the hint says where it stopped. */
function stoppedAtBudget(err: BudgetExceededError, pages: number, cached: boolean): BudgetExceededError {
  // Only a written cache makes the rerun free up to here.
  const rerun = cached
    ? 'run again to continue (the pages already fetched are cached, so they cost nothing then)'
    : 'a rerun fetches those pages again (the response cache is off)';
  return new BudgetExceededError(
    { month: err.month, requests: err.requests, budget: err.budget, origin: err.origin },
    { hint: `Stopped at the budget after ${pages} page${pages === 1 ? '' : 's'}; ${rerun}. ${err.hint ?? ''}`.trim(), details: { pages } },
  );
}

export interface PageParams {
  limit?: number;
  after?: string;
  before?: string;
  lang?: string;
}

/** The filters of /exercise/query, already validated. */
export interface QueryFilterParams {
  name?: string;
  alias?: string;
  primaryMuscle?: Muscle;
  secondaryMuscle?: Muscle;
  category?: Category[];
  force?: Force[];
  level?: Level[];
  mechanic?: Mechanic[];
  equipment?: Equipment[];
  searchlang?: string;
}

export type QueryParams = PageParams & QueryFilterParams;

export const NOT_FOUND_HINT = 'Search by name with `exercises query --name <text>`; list ids with `exercises ids`.';

/**
 * `transport` makes the transport on the first request that goes out (never on a cache hit);
 * `noteLanguage` hears each answer's Content-Language, so a fallback can be said.
 */
export interface ApiClientOptions {
  baseUrl: string;
  apiKey?: string;
  transport: () => Promise<Transport>;
  cache?: ClientCache;
  log?: (line: string) => void;
  noteLanguage?: (asked: string, answered: string) => void;
}

export class ApiClient {
  readonly baseUrl: URL;
  private transport: Promise<Transport> | undefined;
  private readonly cache: ClientCache | undefined;
  private hashed: string | undefined;
  private readonly log: ((line: string) => void) | undefined;
  private readonly noteLanguage: ((asked: string, answered: string) => void) | undefined;
  /** List pages answered in this run, for the message when the budget stops a listing. */
  private pagesAnswered = 0;

  constructor(private readonly options: ApiClientOptions) {
    this.baseUrl = parseBaseUrl(options.baseUrl); // a bad one is a usage error before anything else
    ({ cache: this.cache, log: this.log, noteLanguage: this.noteLanguage } = options);
  }

  http(): Promise<Transport> {
    return (this.transport ??= this.options.transport());
  }

  /** One JSON GET through the response cache, checked by `check` (a bad body is never stored); `record` lets any cached full record serve it. */
  private async get(path: string, params: QueryParams, what: string, check: (body: unknown) => string[], record?: string): Promise<unknown> {
    const query = toQuery(params);
    let checked: unknown;
    const fetch = async (validators: Validators): Promise<FetchResult> => {
      const conditional: Record<string, string> = {};
      if (validators.etag !== undefined) conditional['if-none-match'] = validators.etag;
      if (validators.lastModified !== undefined) conditional['if-modified-since'] = validators.lastModified;
      const answer = await (await this.http()).getJsonAnswer(path, query, what, Object.keys(conditional).length > 0 ? conditional : undefined);
      if (answer.status === 200) {
        const problems = check(answer.body);
        if (problems.length > 0) throw malformed(what, problems);
        checked = answer.body;
      }
      return answer;
    };
    const cache = this.cache;
    let body: unknown;
    // --no-cache reads and writes nothing, so it needs no cache key.
    if (!cache || cache.mode === 'no-cache') {
      const answer = await fetch({});
      if (cache) this.log?.(outcomeLine('miss (--no-cache)', what, params.lang));
      this.languageOf(params, contentLanguage(answer.headers));
      body = answer.status === 200 ? answer.body : undefined;
    } else {
      const url = resolveUrl(this.baseUrl, path, query);
      const keyHashed = (this.hashed ??= keyHash(this.options.apiKey));
      const answer = await cachedApiGet(cache, { url, baseUrl: this.baseUrl, lang: params.lang, keyHash: keyHashed, record, what, fetch });
      this.log?.(outcomeLine(answer.outcome, what, params.lang));
      this.languageOf(params, answer.language);
      body = answer.body;
    }
    // A body from the cache was not checked in this run.
    const problems = checked !== undefined && checked === body ? [] : check(body);
    if (problems.length > 0) throw malformed(what, problems);
    return body;
  }

  private languageOf(params: QueryParams, answered: string | undefined): void {
    if (params.lang !== undefined && answered !== undefined) this.noteLanguage?.(params.lang, answered);
  }

  private async list(path: string, params: QueryParams): Promise<ListResponse> {
    const body = await this.get(path, params, `GET ${path}`, listResponseProblems).catch((err: unknown) => {
      const cached = this.cache !== undefined && this.cache.mode !== 'no-cache';
      throw err instanceof BudgetExceededError && this.pagesAnswered > 0 ? stoppedAtBudget(err, this.pagesAnswered, cached) : err;
    });
    this.pagesAnswered += 1;
    return body as ListResponse;
  }

  query(params: QueryParams): Promise<ListResponse> {
    return this.list('/exercise/query', params);
  }

  exerciseIds(params: PageParams): Promise<ListResponse> {
    return this.list('/exercise/exerciseIds', params);
  }

  /** GET /exercise/{exerciseId}: by id or by name. */
  async getExercise(idOrName: string, options: { lang?: string } = {}): Promise<ExerciseRecord> {
    const path = `/exercise/${pathSegment(idOrName)}`;
    const body = await this.get(path, { lang: options.lang }, `GET ${path}`, recordProblems, idOrName).catch((err: unknown) => {
      if (!(err instanceof NotFoundError)) throw err;
      throw new NotFoundError(`No exercise has the id or name "${idOrName}".`, { hint: NOT_FOUND_HINT, details: { ...err.details, exercise: idOrName } });
    });
    return body as ExerciseRecord;
  }

  mediaUrl(kind: MediaKind, exerciseId: string, entry: string): URL {
    return mediaUrl(this.baseUrl, kind, exerciseId, entry);
  }
}
