/**
 * undici, the HTTP client behind every request (src/http/attempt.ts makes its one Agent).
 * Loaded when the first request really goes out, never at start-up: its bundled vendor file
 * (dist/bundle/vendor/undici.cjs, ~280 KB, half of it llhttp's WebAssembly) brings node:http,
 * node:net and friends with it, and the launcher sets V8's --liftoff-only just before it
 * (bin/startup/liftoff.js). `--help`, `--version`, completion and answers from the response cache
 * never load it (test/http/lazy-undici.test.ts, test/cache/hit-loads-no-http.test.ts).
 */
export function loadUndici(): Promise<typeof import('undici')> {
  return import('undici');
}
