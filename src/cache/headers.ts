/**
 * Reading the response headers the cache and the ledger care about. Header maps come from
 * the transport with lower-case names (as Node and undici give them); values may repeat.
 * What they say of freshness is http-cache-semantics' to read (freshness.ts).
 */

export type HeaderBag = Readonly<Record<string, string | readonly string[] | undefined>>;

/** Every value of a header, joined with `, ` as HTTP folds repeated fields; undefined when absent. */
export function headerText(headers: HeaderBag | undefined, name: string): string | undefined {
  const value = headers?.[name] ?? headers?.[name.toLowerCase()];
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value : value.join(', ');
}

/**
 * Printable ASCII only, at most 200 characters: header values reach `quota`'s output and files.
 * `redact` (util/redact.ts, the key's) runs after the controls are stripped, so a key split by
 * control bytes is still found, and before the cut, so no part of a key is left at the end.
 */
export function safeHeaderValue(value: string, redact: (text: string) => string = (text) => text): string {
  return redact(value.replace(/[^\x20-\x7e]/g, '').trim()).slice(0, 200);
}
