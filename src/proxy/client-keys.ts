/**
 * The proxy's clients: each key has a plan and, optionally, a label naming who holds it
 * (`alice`, `ci-nightly`), which the access log, `/-/status` and the metrics use in place of
 * the key. A key without a label is named by the first 8 hex digits of its hash, as before
 * labels existed: never by the key itself.
 */
import { keyHash } from '../cache/cached-get.js';
import type { Plan } from '../server/records.js';
import { hasUnsafe } from '../util/text.js';

export const PLANS: readonly Plan[] = ['free', 'premium'];

/** Longest label, in characters: a name, not a note. */
export const LABEL_MAX_LENGTH = 64;

export interface ClientKey {
  plan: Plan;
  label?: string;
}

export type ClientKeys = Readonly<Record<string, ClientKey>>;

/** What a client is called in the log, /-/status and the metrics: its label, else its key's short hash. */
export function clientName(key: string, client: ClientKey): string {
  return client.label ?? keyHash(key).slice(0, 8);
}

/** The plans alone, for the catalogue server (src/server), which knows nothing of labels. */
export function plansOf(keys: ClientKeys): Record<string, Plan> {
  return Object.fromEntries(Object.entries(keys).map(([key, client]) => [key, client.plan]));
}

function isPlan(text: string): text is Plan {
  return (PLANS as readonly string[]).includes(text);
}

/**
 * One `KEY:PLAN` or `KEY:PLAN:LABEL` (a key may hold colons; a label may not). The three-field
 * form is read when the field before the last colon is a plan, so `k:premium:alice` is alice's,
 * and `a:b:free` the key `a:b`. Returns why the text is refused, never quoting it: it holds a key.
 */
export function parseClientKey(text: string): { key: string; client: ClientKey } | { problem: string } {
  const fields = text.split(':').map((f) => f.trim());
  const last = fields.at(-1) ?? '';
  const labelled = fields.length >= 3 && !isPlan(last) && isPlan(fields.at(-2) ?? '');
  const plan = labelled ? fields.at(-2)! : last;
  // Each field is trimmed already: so is the key they make.
  const key = fields.slice(0, labelled ? -2 : -1).join(':');
  if (fields.length < 2 || key === '' || !isPlan(plan)) return { problem: `expected KEY:PLAN or KEY:PLAN:LABEL with PLAN one of ${PLANS.join(', ')}` };
  if (!labelled) return { key, client: { plan } };
  const problem = labelProblem(last, key);
  return problem ? { problem } : { key, client: { plan, label: last } };
}

/** Why `label` cannot name a client, or undefined. It goes into log lines and metric labels, so it must print as itself. */
export function labelProblem(label: string, key: string): string | undefined {
  if (label === '') return 'the label after the last colon is empty';
  if ([...label].length > LABEL_MAX_LENGTH) return `the label is longer than ${LABEL_MAX_LENGTH} characters`;
  if (hasUnsafe(label) || /["\\]/.test(label)) return 'the label holds a control, invisible, quote or backslash character; use printable characters';
  // A label would be printed in every log line: one that spells the key would undo keeping keys out of the log.
  if (label.includes(key)) return 'the label holds the key';
  return undefined;
}
