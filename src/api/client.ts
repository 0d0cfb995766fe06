/**
 * The service client: one typed method per endpoint of spec §4. Every answer is
 * schema-checked (unknown fields pass through untouched); nothing here prints.
 */
import { MalformedResponseError, NotFoundError, UsageError } from '../errors.js';
import type { Category, Equipment, Force, Level, Mechanic, Muscle } from '../catalogue/enums.js';
import { MEDIA, type MediaKind, isAbsoluteUrl, stripExtension } from '../catalogue/media.js';
import type { ExerciseRecord, ListResponse } from '../catalogue/types.js';
import { listResponseProblems, recordProblems } from '../catalogue/validate.js';
import type { QueryValues, Transport } from '../http/transport.js';

/** Paging parameters shared by /exercise/query and /exercise/exerciseIds. */
export interface PageParams {
  limit?: number;
  after?: string;
  before?: string;
  lang?: string;
}

/** The filters of /exercise/query (spec §4.1), already validated. */
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

/** `.` and `..`: URL normalisation removes them from a path even percent-encoded, so they can never be sent. */
export function isDotSegment(value: string): boolean {
  return value === '.' || value === '..';
}

/**
 * A value as one percent-encoded path segment (spaces, `/`, `?`, `#`… encoded). `.` and `..`
 * cannot be sent at all: URL normalisation removes them even percent-encoded.
 */
export function pathSegment(value: string): string {
  if (isDotSegment(value)) {
    throw new UsageError(`"${value}" cannot be an exercise id, name or media name.`);
  }
  return encodeURIComponent(value);
}

function toQuery(params: QueryParams): QueryValues {
  const query: QueryValues = {};
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      if (value.length > 0) query[name] = value.map(String);
    } else query[name] = String(value);
  }
  return query;
}

function malformed(what: string, problems: string[]): MalformedResponseError {
  const shown = problems.slice(0, 3).join('; ');
  const more = problems.length > 3 ? ` (and ${problems.length - 3} more)` : '';
  return new MalformedResponseError(`The answer to ${what} does not match the service interface: ${shown}${more}.`, {
    hint: 'Check the base URL points at the exercise service; run with --verbose to see the request.',
    details: { request: what, problems: problems.slice(0, 20) },
  });
}

/** What to do when an exercise is not found, for every command that looks one up. */
export const NOT_FOUND_HINT = 'Search by name with `exercises query --name <text>`; list ids with `exercises ids`.';

export class ApiClient {
  readonly transport: Transport;

  constructor(transport: Transport) {
    this.transport = transport;
  }

  private async list(path: string, params: QueryParams): Promise<ListResponse> {
    const what = `GET ${path}`;
    const body = await this.transport.getJson(path, toQuery(params), what);
    const problems = listResponseProblems(body);
    if (problems.length > 0) throw malformed(what, problems);
    return body as ListResponse;
  }

  /** GET /exercise/query. */
  query(params: QueryParams): Promise<ListResponse> {
    return this.list('/exercise/query', params);
  }

  /** GET /exercise/exerciseIds. */
  exerciseIds(params: PageParams): Promise<ListResponse> {
    return this.list('/exercise/exerciseIds', params);
  }

  /** GET /exercise/{exerciseId}: by id or by name (spaces, `/` and the like are percent-encoded). */
  async getExercise(idOrName: string, options: { lang?: string } = {}): Promise<ExerciseRecord> {
    const what = `GET /exercise/${pathSegment(idOrName)}`;
    let body: unknown;
    try {
      body = await this.transport.getJson(`/exercise/${pathSegment(idOrName)}`, toQuery({ lang: options.lang }), what);
    } catch (err) {
      if (err instanceof NotFoundError) {
        throw new NotFoundError(`No exercise has the id or name "${idOrName}".`, {
          hint: NOT_FOUND_HINT,
          details: { ...err.details, exercise: idOrName },
        });
      }
      throw err;
    }
    const problems = recordProblems(body);
    if (problems.length > 0) throw malformed(what, problems);
    return body as ExerciseRecord;
  }

  /**
   * URL of a premiumImages/premiumVideos entry: a bare name (".png"/".mp4" stripped) becomes
   * the spec path with percent-encoded segments; an absolute URL (of any scheme, as
   * media-names.ts sees it too) is taken as it is, and a path is resolved against the base
   * URL (the transport sends the key only to the base origin).
   * The id and the entry come from the network: one that no URL can carry is a
   * MalformedResponseError (callers decide whether to skip that entry), never a UsageError.
   */
  mediaUrl(kind: MediaKind, exerciseId: string, entry: string): URL {
    const { folder, extension } = MEDIA[kind];
    if (isAbsoluteUrl(entry)) {
      // Only http(s) can be fetched: any other scheme, or no URL at all, is malformed data.
      const url = URL.canParse(entry) ? new URL(entry) : undefined;
      if (url?.protocol === 'http:' || url?.protocol === 'https:') return url;
      throw new MalformedResponseError(`The media URL ${JSON.stringify(entry.slice(0, 200))} is not an http or https URL.`, { details: { entry } });
    }
    if (entry.startsWith('/')) return this.transport.resolve(entry);
    if (isDotSegment(exerciseId)) {
      throw new MalformedResponseError(`The exercise id "${exerciseId}" cannot be sent in a media URL (URL normalisation removes it).`, {
        details: { exercise: exerciseId, entry },
      });
    }
    const file = `${stripExtension(kind, entry)}${extension}`;
    return this.transport.resolve(`/${folder}/${pathSegment(exerciseId)}/premium/${pathSegment(file)}`);
  }
}
