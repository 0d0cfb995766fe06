/** The key's redaction lives in util/redact.ts, below every layer that shows a server's text; re-exported for http's users. */
export * from '../util/redact.js';
