/**
 * Cache keys. Every key names the whole base URL (origin and path prefix: two services behind
 * one host, `http://h/a` and `http://h/b`, never share answers), the language, a hash of the
 * API key and the plan when one is known (the client learns a plan only through its key, so
 * the key hash is what keeps plans apart), so a local server never shares entries with the
 * real service and a page cached for one language is never served for another. The API key
 * itself never appears in a key, and so never in a cache file (cacache writes keys into its
 * index).
 */
import { createHash } from 'node:crypto';

/** Bumped when the meaning of a key or of a stored body changes: old entries are then simply never read. */
const KEY_VERSION = 'v2';
/** Keeps the hash of a key apart from any other use of SHA-256 over the same text. */
const KEY_HASH_DOMAIN = 'exercises api key\0';
/** 64 bits: enough to keep the keys of one machine apart, too little to be a handle on the key. */
const KEY_HASH_HEX_CHARS = 16;

export type QueryInput = URLSearchParams | Readonly<Record<string, string | readonly string[] | undefined>>;

/** A short one-way hash of the API key (`none` without a key): all the cache and the ledger know of it. */
export function keyHash(apiKey: string | undefined): string {
  if (!apiKey) return 'none';
  return createHash('sha256').update(KEY_HASH_DOMAIN).update(apiKey).digest('hex').slice(0, KEY_HASH_HEX_CHARS);
}

/** `https://host[:port]` as URL normalises it (lower-case host, default port dropped). */
export function normalOrigin(origin: string): string {
  return new URL(origin).origin;
}

function queryPairs(query: QueryInput | undefined): Array<[string, string]> {
  if (query === undefined) return [];
  if (query instanceof URLSearchParams) return [...query.entries()];
  const pairs: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    for (const v of typeof value === 'string' ? [value] : value) pairs.push([name, v]);
  }
  return pairs;
}

/**
 * The query in one canonical form: pairs sorted by name, then value. Every repeated
 * parameter of the interface is a set filter (category, force, level…), so the order of
 * its values does not change the answer.
 */
export function canonicalQuery(query: QueryInput | undefined): string {
  const pairs = queryPairs(query).sort(([an, av], [bn, bv]) => (an < bn ? -1 : an > bn ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
  return new URLSearchParams(pairs).toString();
}

/** What a stored answer belongs to: base URL, key (by hash), plan and language. */
export interface ScopeInput {
  origin: string;
  /** The configured base URL, whose path prefix is part of the scope; `origin` alone without it. */
  baseUrl?: string;
  /** The plan, when the caller knows it (e.g. a proxy's client plan); the key hash stands for it otherwise. */
  plan?: string;
  /** The language the answer is in; undefined for the service default (kept apart from an explicit one). */
  lang?: string | undefined;
  apiKey?: string | undefined;
  /** Instead of apiKey, when the caller already has it. */
  keyHash?: string;
}

/** `https://host[:port]/prefix` (no trailing slash): the whole base a connection's answers belong to. */
export function normalBase(input: Pick<ScopeInput, 'origin' | 'baseUrl'>): string {
  if (input.baseUrl === undefined) return normalOrigin(input.origin);
  const url = new URL(input.baseUrl);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** `<base url> <key hash> <plan> <lang>`: the part every cache key of one connection and language shares. */
export function cacheScope(input: ScopeInput): string {
  const hash = input.keyHash ?? keyHash(input.apiKey);
  return `${normalBase(input)} ${hash} ${input.plan ?? '-'} ${input.lang ? input.lang.toLowerCase() : '-'}`;
}

export interface RequestKeyInput extends ScopeInput {
  /** The URL path as sent (already percent-encoded, including any base-URL prefix). */
  path: string;
  query?: QueryInput;
}

/** The key of one GET: its scope, path and canonical query. */
export function cacheKey(input: RequestKeyInput): string {
  return scopedCacheKey(cacheScope(input), input.path, input.query);
}

/** cacheKey() with its scope (cacheScope()) already made: a listing asks for hundreds of keys in one scope. */
export function scopedCacheKey(scope: string, path: string, query: QueryInput | undefined): string {
  const canonical = canonicalQuery(query);
  return `${KEY_VERSION} GET ${scope} ${path}${canonical ? `?${canonical}` : ''}`;
}

/**
 * A name as `show` may be given it: Unicode NFC, lower case. Names match case-insensitively,
 * as the project's server matches them; ids match exactly.
 */
export function normalName(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

/** Key of a full record by its id. */
export function recordIdKey(scope: string, id: string): string {
  return `${KEY_VERSION} record ${scope} id ${id}`;
}

/** Key of a full record by its (English) name, case-insensitively. */
export function recordNameKey(scope: string, name: string): string {
  return `${KEY_VERSION} record ${scope} name ${normalName(name)}`;
}

/*
 * Full records known from any answer. GET /exercise/{id} answers a full record (spec §2.1);
 * list pages carry summaries (§2.2), but an item that has the fields only a full record
 * carries is one, so it can answer `show` too.
 */

/** A list item that is a full record: it has a name and the category, primary muscles and instructions. */
export function isFullRecord(item: unknown): item is { name: string; [field: string]: unknown } {
  if (typeof item !== 'object' || item === null) return false;
  const r = item as Record<string, unknown>;
  return typeof r.name === 'string' && r.category !== undefined && Array.isArray(r.primaryMuscle) && Array.isArray(r.instructions);
}

/** The keys a record is kept under in a scope: its id (exactly), its name (case-insensitively). */
export function recordKeys(scope: string, record: unknown): string[] {
  if (typeof record !== 'object' || record === null) return [];
  const { id, name } = record as Record<string, unknown>;
  const keys: string[] = [];
  if (typeof id === 'string' && id !== '') keys.push(recordIdKey(scope, id));
  if (typeof name === 'string' && name !== '') keys.push(recordNameKey(scope, name));
  return keys;
}
