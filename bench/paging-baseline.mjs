#!/usr/bin/env node
/**
 * The yardstick of bench/paging.mjs: the plainest client that pages through
 * GET /exercise/exerciseIds — undici's request() over one keep-alive Agent, following
 * pagination.next, one JSON line per exercise on stdout. No validation, no retries.
 *
 * Usage: node bench/paging-baseline.mjs <base-url> <api-key> <limit>
 */
import { Agent, request } from 'undici';

const [baseUrl, apiKey, limitText] = process.argv.slice(2);
const limit = Number(limitText);
const dispatcher = new Agent({ keepAliveTimeout: 10_000 });

let cursor;
for (;;) {
  const url = new URL('/exercise/exerciseIds', baseUrl);
  url.searchParams.set('limit', String(limit));
  if (cursor) url.searchParams.set('after', cursor);
  const { statusCode, body } = await request(url, { dispatcher, headers: { 'x-api-key': apiKey, accept: 'application/json' } });
  if (statusCode !== 200) throw new Error(`GET ${url} → ${statusCode}`);
  const page = await body.json();
  let out = '';
  for (const item of page.exercises) out += `${JSON.stringify(item)}\n`;
  process.stdout.write(out);
  cursor = page.pagination.next;
  if (!cursor || page.exercises.length < limit) break;
}
await dispatcher.close();
