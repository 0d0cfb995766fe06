#!/usr/bin/env node
/**
 * The yardsticks of bench/startup.mjs and bench/paging.mjs: the plainest clients doing the
 * CLI's work, no validation, no retries, in CommonJS like the CLI's launcher.
 *
 *   node bench/bare-client.cjs <undici|http> get  <base-url> <api-key> <id>     one GET /exercise/<id>, JSON printed
 *   node bench/bare-client.cjs <undici|http> page <base-url> <api-key> <limit>  GET /exercise/exerciseIds
 *        following pagination.next, one JSON line per exercise
 *
 * `undici` loads undici as the CLI does (the launcher's engine options, bin/startup/engine-options.js,
 * then the bundled vendor file dist/bundle/vendor/undici.cjs from `npm run build`), then one
 * keep-alive Agent and its request(). `http` is node:http with a keep-alive Agent.
 */
'use strict';

const path = require('node:path');

const [client, mode, baseUrl, apiKey, arg] = process.argv.slice(2);
const headers = { 'x-api-key': apiKey, accept: 'application/json' };

/** GET `url` → parsed JSON, over the chosen client. */
let get;
let close;
if (client === 'undici') {
  const { enableCompileCache, liftoffOnNode20 } = require(path.join(__dirname, '..', 'bin', 'startup', 'engine-options.js'));
  enableCompileCache();
  liftoffOnNode20();
  const { Agent } = require(path.join(__dirname, '..', 'dist', 'bundle', 'vendor', 'undici.cjs')).undici;
  const agent = new Agent();
  get = async (url) => {
    const { statusCode, body } = await agent.request({ origin: url.origin, path: `${url.pathname}${url.search}`, method: 'GET', headers });
    if (statusCode !== 200) throw new Error(`GET ${url} → ${statusCode}`);
    return body.json();
  };
  close = () => agent.destroy();
} else if (client === 'http') {
  const http = require('node:http');
  const agent = new http.Agent({ keepAlive: true });
  get = (url) =>
    new Promise((resolve, reject) => {
      http
        .get(url, { agent, headers }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => (res.statusCode === 200 ? resolve(JSON.parse(text)) : reject(new Error(`GET ${url} → ${res.statusCode}`))));
          res.on('error', reject);
        })
        .on('error', reject);
    });
  close = () => agent.destroy();
} else {
  console.error('Usage: node bench/bare-client.cjs <undici|http> <get|page> <base-url> <api-key> <id|limit>');
  process.exit(2);
}

async function main() {
  if (mode === 'get') {
    const record = await get(new URL(`/exercise/${encodeURIComponent(arg)}`, baseUrl));
    process.stdout.write(`${JSON.stringify(record)}\n`);
  } else {
    const limit = Number(arg);
    let cursor;
    for (;;) {
      const url = new URL('/exercise/exerciseIds', baseUrl);
      url.searchParams.set('limit', String(limit));
      if (cursor) url.searchParams.set('after', cursor);
      const page = await get(url);
      let out = '';
      for (const item of page.exercises) out += `${JSON.stringify(item)}\n`;
      process.stdout.write(out);
      cursor = page.pagination.next;
      if (!cursor || page.exercises.length < limit) break;
    }
  }
  await close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
