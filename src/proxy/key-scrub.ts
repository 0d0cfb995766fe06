/**
 * Keys taken out of what the proxy keeps: a client's URL (withoutKeys) before it becomes a cache
 * key, and the upstream key out of an upstream answer before the proxy stores or serves it. A
 * text redaction of the raw bytes is not enough for JSON: `\u0073andbox…` is the key once
 * decoded, and a client (or answer-writer.ts re-serialising it for a free plan) sees it plainly.
 * So a JSON body is decoded and every string in it — values and member names — redacted, then
 * written again (only when something changed: an answer without the key keeps its exact bytes);
 * every header value is redacted as text. `carriesKey` is the check made after, before storing.
 */
import type { UpstreamBody } from './upstream.js';

type Redact = (text: string) => string;

/** Query parameters that carry a key by their name, in any case: `api_key`, `apiKey`, `api-key`, `key`. */
const KEY_PARAM = /^(api[-_]?key|key)$/i;

/** A part of a URL as sent, and percent-decoded (`+` as a space) when that can be done. */
export function urlPartForms(raw: string): string[] {
  try {
    return [raw, decodeURIComponent(raw.replace(/\+/g, ' '))];
  } catch {
    return [raw];
  }
}

/** `query` (no `?`) without the parameters that carry a key: by their name, or by a value that `isKey` holds for. */
export function withoutKeys(query: string, isKey: (value: string) => boolean): string {
  if (query === '') return query;
  const kept = query.split('&').filter((pair) => {
    const eq = pair.indexOf('=');
    const named = urlPartForms(eq === -1 ? pair : pair.slice(0, eq)).some((name) => KEY_PARAM.test(name));
    return !named && !(eq !== -1 && urlPartForms(pair.slice(eq + 1)).some(isKey));
  });
  return kept.join('&');
}

/** An object or an array: either is walked by its keys. */
function isContainer(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/**
 * Redacts every string of a parsed JSON value in place — items, member values and member names;
 * the value (a new one only for a bare string) and whether anything changed. An explicit stack:
 * no recursion, whatever the nesting.
 */
function redactStrings(root: unknown, redact: Redact): { value: unknown; changed: boolean } {
  if (typeof root === 'string') {
    const value = redact(root);
    return { value, changed: value !== root };
  }
  let changed = false;
  const stack: Array<Record<string, unknown>> = isContainer(root) ? [root] : [];
  while (stack.length > 0) {
    const node = stack.pop()!;
    for (const name of Object.keys(node)) {
      const item = node[name];
      if (isContainer(item)) stack.push(item);
      // An array's indices are no text of the upstream's.
      const cleanName = Array.isArray(node) ? name : redact(name);
      const cleanItem = typeof item === 'string' ? redact(item) : item;
      if (cleanName === name && cleanItem === item) continue;
      changed = true;
      if (cleanName !== name) delete node[name];
      // defineProperty, not assignment: a member named `__proto__` stays a member, never a prototype.
      Object.defineProperty(node, cleanName, { value: cleanItem, enumerable: true, writable: true, configurable: true });
    }
  }
  return { value: root, changed };
}

/** The JSON value of `body`, or undefined when it is not JSON. */
function parsed(body: Buffer): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(body.toString('utf8')) as unknown };
  } catch {
    return undefined;
  }
}

/** `res` with the key redacted from every header value and from its body (decoded first when JSON); `json` says whether the body is JSON. */
export function scrubAnswer(res: UpstreamBody, redact: Redact): UpstreamBody & { json: boolean } {
  const headers: UpstreamBody['headers'] = {};
  for (const [name, value] of Object.entries(res.headers)) {
    headers[name] = Array.isArray(value) ? value.map(redact) : value === undefined ? undefined : redact(value);
  }
  const json = parsed(res.body);
  if (!json) return { status: res.status, headers, body: Buffer.from(redact(res.body.toString('utf8'))), json: false };
  const { value, changed } = redactStrings(json.value, redact);
  return { status: res.status, headers, body: changed ? Buffer.from(JSON.stringify(value)) : res.body, json: true };
}

/** Whether the key is still anywhere in `res`: headers, the body as sent, the body decoded when JSON. */
export function carriesKey(res: UpstreamBody, redact: Redact): boolean {
  for (const value of Object.values(res.headers)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) if (redact(one) !== one) return true;
  }
  const text = res.body.toString('utf8');
  if (redact(text) !== text) return true;
  const json = parsed(res.body);
  return json !== undefined && redactStrings(json.value, redact).changed;
}
